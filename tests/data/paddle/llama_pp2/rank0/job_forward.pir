{
    ^kw:
        %kwarg_llama_rms_norm_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_embedding_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_6.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_5.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"llama_rms_norm_1.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%5) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%6) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%7) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%8) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%9) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"llama_rms_norm_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%10) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"embedding_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%11) = "pd_op.data" () {chunk_id:-1,dtype:int64,name:"input0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xi64>
    (%12) = "pd_op.embedding" (%11, %10) {chunk_id:-1,op_role:0,padding_idx:-1,sparse:false,stop_gradient:[false],struct_name:"/TinyLlama/Embedding/"} : (tensor<2x4xi64>, tensor<16x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%12) {output_name:"var_12_pd_op.embedding_0"} : (tensor<2x4x8xf32>) -> 
    (%13) = "pd_op.pow" (%12) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm/",y:2} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%13) {output_name:"var_13_pd_op.pow_0"} : (tensor<2x4x8xf32>) -> 
    (%14) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm/",value:[-1]} : () -> tensor<1xi64>
    () = "builtin.shadow_output" (%14) {output_name:"var_14_pd_op.full_int_array_0"} : (tensor<1xi64>) -> 
    (%15) = "pd_op.mean" (%13, %14) {chunk_id:-1,keepdim:true,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm/"} : (tensor<2x4x8xf32>, tensor<1xi64>) -> tensor<2x4x1xf32>
    (%16) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm/",value:1} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%16) {output_name:"var_16_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%17) = "pd_op.scale" (%15, %16) {bias:1e-06,bias_after_scale:true,chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm/"} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%18) = "pd_op.rsqrt" (%17) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm/"} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    () = "builtin.shadow_output" (%18) {output_name:"var_18_pd_op.rsqrt_0"} : (tensor<2x4x1xf32>) -> 
    (%19) = "pd_op.multiply" (%18, %12) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm/"} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%19) {output_name:"var_19_pd_op.multiply_0"} : (tensor<2x4x8xf32>) -> 
    (%20) = "pd_op.multiply" (%19, %9) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm/"} : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%20) {output_name:"var_20_pd_op.multiply_0"} : (tensor<2x4x8xf32>) -> 
    (%21) = "pd_op.matmul" (%20, %8) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%21) {output_name:"var_21_pd_op.matmul_0"} : (tensor<2x4x8xf32>) -> 
    (%22) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/",value:[2,4,2,4]} : () -> tensor<4xi64>
    (%23) = "pd_op.reshape" (%21, %22) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/"} : (tensor<2x4x8xf32>, tensor<4xi64>) -> tensor<2x4x2x4xf32>
    (%24) = "pd_op.transpose" (%23) {chunk_id:-1,op_role:0,perm:[0,2,1,3],stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/"} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
    () = "builtin.shadow_output" (%24) {output_name:"var_24_pd_op.transpose_0"} : (tensor<2x2x4x4xf32>) -> 
    (%25) = "pd_op.matmul" (%20, %7) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%25) {output_name:"var_25_pd_op.matmul_0"} : (tensor<2x4x8xf32>) -> 
    (%26) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/",value:[2,4,2,4]} : () -> tensor<4xi64>
    (%27) = "pd_op.reshape" (%25, %26) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/"} : (tensor<2x4x8xf32>, tensor<4xi64>) -> tensor<2x4x2x4xf32>
    (%28) = "pd_op.transpose" (%27) {chunk_id:-1,op_role:0,perm:[0,2,1,3],stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/"} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
    () = "builtin.shadow_output" (%28) {output_name:"var_28_pd_op.transpose_0"} : (tensor<2x2x4x4xf32>) -> 
    (%29) = "pd_op.matmul" (%20, %6) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/Linear_2/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%29) {output_name:"var_29_pd_op.matmul_0"} : (tensor<2x4x8xf32>) -> 
    (%30) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/",value:[2,4,2,4]} : () -> tensor<4xi64>
    (%31) = "pd_op.reshape" (%29, %30) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/"} : (tensor<2x4x8xf32>, tensor<4xi64>) -> tensor<2x4x2x4xf32>
    (%32) = "pd_op.transpose" (%31) {chunk_id:-1,op_role:0,perm:[0,2,1,3],stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/"} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
    () = "builtin.shadow_output" (%32) {output_name:"var_32_pd_op.transpose_0"} : (tensor<2x2x4x4xf32>) -> 
    (%33) = "pd_op.matmul" (%24, %28) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/",transpose_x:false,transpose_y:true} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    (%34) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/",value:0.5} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%34) {output_name:"var_34_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%35) = "pd_op.scale" (%33, %34) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/"} : (tensor<2x2x4x4xf32>, tensor<1xf32>) -> tensor<2x2x4x4xf32>
    (%36) = "pd_op.softmax" (%35) {axis:-1,chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/"} : (tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    () = "builtin.shadow_output" (%36) {output_name:"var_36_pd_op.softmax_0"} : (tensor<2x2x4x4xf32>) -> 
    (%37) = "pd_op.matmul" (%36, %32) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/",transpose_x:false,transpose_y:false} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    (%38) = "pd_op.transpose" (%37) {chunk_id:-1,op_role:0,perm:[0,2,1,3],stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/"} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    () = "builtin.shadow_output" (%38) {output_name:"var_38_pd_op.transpose_0"} : (tensor<2x4x2x4xf32>) -> 
    (%39) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/",value:[2,4,8]} : () -> tensor<3xi64>
    (%40) = "pd_op.reshape" (%38, %39) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/"} : (tensor<2x4x2x4xf32>, tensor<3xi64>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%40) {output_name:"var_40_pd_op.reshape_0"} : (tensor<2x4x8xf32>) -> 
    (%41) = "pd_op.matmul" (%40, %5) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaAttention/Linear_3/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%41) {output_name:"var_41_pd_op.matmul_0"} : (tensor<2x4x8xf32>) -> 
    (%42) = "pd_op.add" (%12, %41) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/"} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%42) {output_name:"var_42_pd_op.add_0"} : (tensor<2x4x8xf32>) -> 
    (%43) = "pd_op.pow" (%42) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm_1/",y:2} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%43) {output_name:"var_43_pd_op.pow_0"} : (tensor<2x4x8xf32>) -> 
    (%44) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm_1/",value:[-1]} : () -> tensor<1xi64>
    () = "builtin.shadow_output" (%44) {output_name:"var_44_pd_op.full_int_array_0"} : (tensor<1xi64>) -> 
    (%45) = "pd_op.mean" (%43, %44) {chunk_id:-1,keepdim:true,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm_1/"} : (tensor<2x4x8xf32>, tensor<1xi64>) -> tensor<2x4x1xf32>
    (%46) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm_1/",value:1} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%46) {output_name:"var_46_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%47) = "pd_op.scale" (%45, %46) {bias:1e-06,bias_after_scale:true,chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm_1/"} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%48) = "pd_op.rsqrt" (%47) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm_1/"} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    () = "builtin.shadow_output" (%48) {output_name:"var_48_pd_op.rsqrt_0"} : (tensor<2x4x1xf32>) -> 
    (%49) = "pd_op.multiply" (%48, %42) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm_1/"} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%49) {output_name:"var_49_pd_op.multiply_0"} : (tensor<2x4x8xf32>) -> 
    (%50) = "pd_op.multiply" (%49, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaRMSNorm_1/"} : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%50) {output_name:"var_50_pd_op.multiply_0"} : (tensor<2x4x8xf32>) -> 
    (%51) = "pd_op.matmul" (%50, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaMLP/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
    () = "builtin.shadow_output" (%51) {output_name:"var_51_pd_op.matmul_0"} : (tensor<2x4x16xf32>) -> 
    (%52) = "pd_op.silu" (%51) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaMLP/"} : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    () = "builtin.shadow_output" (%52) {output_name:"var_52_pd_op.silu_0"} : (tensor<2x4x16xf32>) -> 
    (%53) = "pd_op.matmul" (%50, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaMLP/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
    () = "builtin.shadow_output" (%53) {output_name:"var_53_pd_op.matmul_0"} : (tensor<2x4x16xf32>) -> 
    (%54) = "pd_op.multiply" (%52, %53) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaMLP/"} : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    () = "builtin.shadow_output" (%54) {output_name:"var_54_pd_op.multiply_0"} : (tensor<2x4x16xf32>) -> 
    (%55) = "pd_op.matmul" (%54, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/LlamaMLP/Linear_2/",transpose_x:false,transpose_y:false} : (tensor<2x4x16xf32>, tensor<16x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%55) {output_name:"var_55_pd_op.matmul_0"} : (tensor<2x4x8xf32>) -> 
    (%56) = "pd_op.add" (%42, %55) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer/"} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "pd_op.send_v2" (%56) {chunk_id:-1,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:0,peer:1,ring_id:12,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x4x8xf32>) -> 
}
