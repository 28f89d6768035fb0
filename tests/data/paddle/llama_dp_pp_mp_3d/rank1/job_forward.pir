{
    ^kw:
        %kwarg_var_13_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_llama_rms_norm_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_10.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_9.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_12.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_11.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_13.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_14.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_14.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"llama_rms_norm_4.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_13.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_12.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%5) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_11.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%6) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"llama_rms_norm_3.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%7) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_10.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%8) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_9.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%9) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_8.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%10) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_7.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%11) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"llama_rms_norm_2.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%12) = "pd_op.data" () {chunk_id:-1,dtype:int64,name:"label0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,4,1],stop_gradient:[true]} : () -> tensor<2x4x1xi64>
    (%13) = "pd_op.pow" (%kwarg_var_13_pd_op.recv_v2_0) {chunk_id:-1,events_to_wait:["var_13_pd_op.recv_v2_0"],op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm/",y:2} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%13) {output_name:"var_14_pd_op.pow_0"} : (tensor<2x4x8xf32>) -> 
    (%14) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm/",value:[-1]} : () -> tensor<1xi64>
    () = "builtin.shadow_output" (%14) {output_name:"var_15_pd_op.full_int_array_0"} : (tensor<1xi64>) -> 
    (%15) = "pd_op.mean" (%13, %14) {chunk_id:-1,keepdim:true,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm/"} : (tensor<2x4x8xf32>, tensor<1xi64>) -> tensor<2x4x1xf32>
    (%16) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm/",value:1} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%16) {output_name:"var_17_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%17) = "pd_op.all_reduce" (%15) {chunk_id:-1,op_role:0,reduce_type:4,ring_id:15,stop_gradient:[false]} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%18) = "pd_op.scale" (%17, %16) {bias:1e-06,bias_after_scale:true,chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm/"} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%19) = "pd_op.rsqrt" (%18) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm/"} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    () = "builtin.shadow_output" (%19) {output_name:"var_20_pd_op.rsqrt_0"} : (tensor<2x4x1xf32>) -> 
    (%20) = "pd_op.multiply" (%19, %kwarg_var_13_pd_op.recv_v2_0) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm/"} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%20) {output_name:"var_21_pd_op.multiply_0"} : (tensor<2x4x8xf32>) -> 
    (%21) = "pd_op.share_data_" (%11) {chunk_id:-1,op_role:0,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    () = "builtin.shadow_output" (%21) {output_name:"var_22_pd_op.share_data__0"} : (tensor<8xf32>) -> 
    (%22) = "pd_op.multiply" (%20, %21) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm/"} : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%22) {output_name:"var_23_pd_op.multiply_0"} : (tensor<2x4x8xf32>) -> 
    (%23) = "pd_op.matmul" (%22, %10) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%23) {output_name:"var_24_pd_op.matmul_0"} : (tensor<2x4x8xf32>) -> 
    (%24) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/",value:[2,4,2,4]} : () -> tensor<4xi64>
    (%25) = "pd_op.reshape" (%23, %24) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/"} : (tensor<2x4x8xf32>, tensor<4xi64>) -> tensor<2x4x2x4xf32>
    (%26) = "pd_op.transpose" (%25) {chunk_id:-1,op_role:0,perm:[0,2,1,3],stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/"} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
    () = "builtin.shadow_output" (%26) {output_name:"var_27_pd_op.transpose_0"} : (tensor<2x2x4x4xf32>) -> 
    (%27) = "pd_op.matmul" (%22, %9) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%27) {output_name:"var_28_pd_op.matmul_0"} : (tensor<2x4x8xf32>) -> 
    (%28) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/",value:[2,4,2,4]} : () -> tensor<4xi64>
    (%29) = "pd_op.reshape" (%27, %28) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/"} : (tensor<2x4x8xf32>, tensor<4xi64>) -> tensor<2x4x2x4xf32>
    (%30) = "pd_op.transpose" (%29) {chunk_id:-1,op_role:0,perm:[0,2,1,3],stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/"} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
    () = "builtin.shadow_output" (%30) {output_name:"var_31_pd_op.transpose_0"} : (tensor<2x2x4x4xf32>) -> 
    (%31) = "pd_op.matmul" (%22, %8) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/Linear_2/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%31) {output_name:"var_32_pd_op.matmul_0"} : (tensor<2x4x8xf32>) -> 
    (%32) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/",value:[2,4,2,4]} : () -> tensor<4xi64>
    (%33) = "pd_op.reshape" (%31, %32) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/"} : (tensor<2x4x8xf32>, tensor<4xi64>) -> tensor<2x4x2x4xf32>
    (%34) = "pd_op.transpose" (%33) {chunk_id:-1,op_role:0,perm:[0,2,1,3],stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/"} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
    () = "builtin.shadow_output" (%34) {output_name:"var_35_pd_op.transpose_0"} : (tensor<2x2x4x4xf32>) -> 
    (%35) = "pd_op.matmul" (%26, %30) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/",transpose_x:false,transpose_y:true} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    (%36) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/",value:0.5} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%36) {output_name:"var_37_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%37) = "pd_op.scale" (%35, %36) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/"} : (tensor<2x2x4x4xf32>, tensor<1xf32>) -> tensor<2x2x4x4xf32>
    (%38) = "pd_op.softmax" (%37) {axis:-1,chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/"} : (tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    () = "builtin.shadow_output" (%38) {output_name:"var_39_pd_op.softmax_0"} : (tensor<2x2x4x4xf32>) -> 
    (%39) = "pd_op.matmul" (%38, %34) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/",transpose_x:false,transpose_y:false} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    (%40) = "pd_op.transpose" (%39) {chunk_id:-1,op_role:0,perm:[0,2,1,3],stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/"} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    () = "builtin.shadow_output" (%40) {output_name:"var_41_pd_op.transpose_0"} : (tensor<2x4x2x4xf32>) -> 
    (%41) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/",value:[2,4,8]} : () -> tensor<3xi64>
    (%42) = "pd_op.reshape" (%40, %41) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/"} : (tensor<2x4x2x4xf32>, tensor<3xi64>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%42) {output_name:"var_43_pd_op.reshape_0"} : (tensor<2x4x8xf32>) -> 
    (%43) = "pd_op.matmul" (%42, %7) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaAttention/Linear_3/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    (%44) = "pd_op.transpose" (%43) {chunk_id:-1,op_role:0,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%45) = "pd_op.transpose" (%44) {chunk_id:-1,op_role:0,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%45) {output_name:"var_46_pd_op.transpose_0"} : (tensor<2x4x8xf32>) -> 
    (%46) = "pd_op.add" (%kwarg_var_13_pd_op.recv_v2_0, %45) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/"} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%46) {output_name:"var_47_pd_op.add_0"} : (tensor<2x4x8xf32>) -> 
    (%47) = "pd_op.pow" (%46) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm_1/",y:2} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%47) {output_name:"var_48_pd_op.pow_0"} : (tensor<2x4x8xf32>) -> 
    (%48) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm_1/",value:[-1]} : () -> tensor<1xi64>
    () = "builtin.shadow_output" (%48) {output_name:"var_49_pd_op.full_int_array_0"} : (tensor<1xi64>) -> 
    (%49) = "pd_op.mean" (%47, %48) {chunk_id:-1,keepdim:true,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm_1/"} : (tensor<2x4x8xf32>, tensor<1xi64>) -> tensor<2x4x1xf32>
    (%50) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm_1/",value:1} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%50) {output_name:"var_51_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%51) = "pd_op.all_reduce" (%49) {chunk_id:-1,op_role:0,reduce_type:4,ring_id:15,stop_gradient:[false]} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%52) = "pd_op.scale" (%51, %50) {bias:1e-06,bias_after_scale:true,chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm_1/"} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%53) = "pd_op.rsqrt" (%52) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm_1/"} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    () = "builtin.shadow_output" (%53) {output_name:"var_54_pd_op.rsqrt_0"} : (tensor<2x4x1xf32>) -> 
    (%54) = "pd_op.multiply" (%53, %46) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm_1/"} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%54) {output_name:"var_55_pd_op.multiply_0"} : (tensor<2x4x8xf32>) -> 
    (%55) = "pd_op.share_data_" (%6) {chunk_id:-1,op_role:0,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    () = "builtin.shadow_output" (%55) {output_name:"var_56_pd_op.share_data__0"} : (tensor<8xf32>) -> 
    (%56) = "pd_op.multiply" (%54, %55) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaRMSNorm_1/"} : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%56) {output_name:"var_57_pd_op.multiply_0"} : (tensor<2x4x8xf32>) -> 
    (%57) = "pd_op.matmul" (%56, %5) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaMLP/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
    () = "builtin.shadow_output" (%57) {output_name:"var_58_pd_op.matmul_0"} : (tensor<2x4x16xf32>) -> 
    (%58) = "pd_op.silu" (%57) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaMLP/"} : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    () = "builtin.shadow_output" (%58) {output_name:"var_59_pd_op.silu_0"} : (tensor<2x4x16xf32>) -> 
    (%59) = "pd_op.matmul" (%56, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaMLP/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
    () = "builtin.shadow_output" (%59) {output_name:"var_60_pd_op.matmul_0"} : (tensor<2x4x16xf32>) -> 
    (%60) = "pd_op.multiply" (%58, %59) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaMLP/"} : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    () = "builtin.shadow_output" (%60) {output_name:"var_61_pd_op.multiply_0"} : (tensor<2x4x16xf32>) -> 
    (%61) = "pd_op.matmul" (%60, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/LlamaMLP/Linear_2/",transpose_x:false,transpose_y:false} : (tensor<2x4x16xf32>, tensor<16x8xf32>) -> tensor<2x4x8xf32>
    (%62) = "pd_op.transpose" (%61) {chunk_id:-1,op_role:0,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%63) = "pd_op.transpose" (%62) {chunk_id:-1,op_role:0,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%63) {output_name:"var_64_pd_op.transpose_0"} : (tensor<2x4x8xf32>) -> 
    (%64) = "pd_op.add" (%46, %63) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaDecoderLayer_1/"} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%64) {output_name:"var_65_pd_op.add_0"} : (tensor<2x4x8xf32>) -> 
    (%65) = "pd_op.pow" (%64) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaRMSNorm/",y:2} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%65) {output_name:"var_66_pd_op.pow_0"} : (tensor<2x4x8xf32>) -> 
    (%66) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/TinyLlama/LlamaRMSNorm/",value:[-1]} : () -> tensor<1xi64>
    () = "builtin.shadow_output" (%66) {output_name:"var_67_pd_op.full_int_array_0"} : (tensor<1xi64>) -> 
    (%67) = "pd_op.mean" (%65, %66) {chunk_id:-1,keepdim:true,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaRMSNorm/"} : (tensor<2x4x8xf32>, tensor<1xi64>) -> tensor<2x4x1xf32>
    (%68) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/TinyLlama/LlamaRMSNorm/",value:1} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%68) {output_name:"var_69_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%69) = "pd_op.all_reduce" (%67) {chunk_id:-1,op_role:0,reduce_type:4,ring_id:15,stop_gradient:[false]} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%70) = "pd_op.scale" (%69, %68) {bias:1e-06,bias_after_scale:true,chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaRMSNorm/"} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%71) = "pd_op.rsqrt" (%70) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaRMSNorm/"} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    () = "builtin.shadow_output" (%71) {output_name:"var_72_pd_op.rsqrt_0"} : (tensor<2x4x1xf32>) -> 
    (%72) = "pd_op.multiply" (%71, %64) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaRMSNorm/"} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%72) {output_name:"var_73_pd_op.multiply_0"} : (tensor<2x4x8xf32>) -> 
    (%73) = "pd_op.share_data_" (%2) {chunk_id:-1,op_role:0,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    () = "builtin.shadow_output" (%73) {output_name:"var_74_pd_op.share_data__0"} : (tensor<8xf32>) -> 
    (%74) = "pd_op.multiply" (%72, %73) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/LlamaRMSNorm/"} : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%74) {output_name:"var_75_pd_op.multiply_0"} : (tensor<2x4x8xf32>) -> 
    (%75) = "pd_op.matmul" (%74, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/TinyLlama/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
    (%76, %77) = "pd_op.cross_entropy_with_softmax" (%75, %12) {axis:-1,chunk_id:-1,ignore_index:-100,numeric_stable_mode:true,op_role:0,soft_label:false,stop_gradient:[false,false],struct_name:"/CrossEntropyLoss/",use_softmax:true} : (tensor<2x4x16xf32>, tensor<2x4x1xi64>) -> tensor<2x4x16xf32>, tensor<2x4x1xf32>
    () = "builtin.shadow_output" (%77) {output_name:"var_77_pd_op.cross_entropy_with_softmax_1"} : (tensor<2x4x1xf32>) -> 
    () = "builtin.shadow_output" (%76) {output_name:"var_77_pd_op.cross_entropy_with_softmax_0"} : (tensor<2x4x16xf32>) -> 
    (%78) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/CrossEntropyLoss/",value:[]} : () -> tensor<0xi64>
    () = "builtin.shadow_output" (%78) {output_name:"var_78_pd_op.full_int_array_0"} : (tensor<0xi64>) -> 
    (%79) = "pd_op.mean" (%77, %78) {chunk_id:-1,keepdim:false,op_role:0,stop_gradient:[false],struct_name:"/CrossEntropyLoss/"} : (tensor<2x4x1xf32>, tensor<0xi64>) -> tensor<f32>
    () = "builtin.shadow_output" (%79) {chunk_id:-1,op_role:0,output_name:"loss_0"} : (tensor<f32>) -> 
}
