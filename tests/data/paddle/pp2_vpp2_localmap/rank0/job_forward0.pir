{
    ^kw:
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:0,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_5.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%2) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_5.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%3) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%4) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%5) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%6) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%7) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%8) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%9) = "pd_op.data" () {chunk_id:0,dtype:float32,name:"input0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>
    (%10) = "pd_op.matmul" (%9, %8) {chunk_id:0,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%10) {output_name:"var_10_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%11) = "pd_op.add" (%10, %7) {chunk_id:0,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%12) = "pd_op.relu" (%11) {chunk_id:0,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%12) {output_name:"var_12_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%13) = "pd_op.matmul" (%12, %6) {chunk_id:0,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%13) {output_name:"var_13_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%14) = "pd_op.add" (%13, %5) {chunk_id:0,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    (%15) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/PipelineMLP/MyLinear/",value:1} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%15) {output_name:"var_15_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%16) = "pd_op.scale" (%14, %15) {bias:0.1,bias_after_scale:true,chunk_id:0,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/"} : (tensor<2x8xf32>, tensor<1xf32>) -> tensor<2x8xf32>
    (%17) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/PipelineMLP/MyLinear/",value:1} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%17) {output_name:"var_17_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%18) = "pd_op.scale" (%16, %17) {bias:-0.3,bias_after_scale:true,chunk_id:0,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/"} : (tensor<2x8xf32>, tensor<1xf32>) -> tensor<2x8xf32>
    (%19) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/PipelineMLP/MyLinear/",value:0.5} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%19) {output_name:"var_19_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%20) = "pd_op.scale" (%18, %19) {bias:0,bias_after_scale:true,chunk_id:0,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/"} : (tensor<2x8xf32>, tensor<1xf32>) -> tensor<2x8xf32>
    () = "pd_op.send_v2" (%20) {chunk_id:0,dynamic_shape:false,execution_stream:"send_stream_12",op_role:0,peer:1,ring_id:12,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
}
