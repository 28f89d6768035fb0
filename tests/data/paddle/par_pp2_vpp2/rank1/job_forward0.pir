{
    ^kw:
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_12_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_2.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:0,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_8.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4xf32>
    (%2) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_8.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x4xf32>
    (%3) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_7.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%4) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_7.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%5) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_6.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%6) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_6.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%7) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%8) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%9) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%10) = "builtin.parameter" () {chunk_id:0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%11) = "pd_op.data" () {chunk_id:0,dtype:float32,name:"label0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf32>
    (%12) = "pd_op.matmul" (%kwarg_var_12_pd_op.recv_v2_0, %10) {chunk_id:0,events_to_wait:["var_12_pd_op.recv_v2_0"],op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%12) {output_name:"var_13_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%13) = "pd_op.add" (%12, %9) {chunk_id:0,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%14) = "pd_op.relu" (%13) {chunk_id:0,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%14) {output_name:"var_15_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%15) = "pd_op.matmul" (%14, %8) {chunk_id:0,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%15) {output_name:"var_16_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%16) = "pd_op.add" (%15, %7) {chunk_id:0,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "pd_op.send_v2" (%16) {chunk_id:0,dynamic_shape:false,execution_stream:"send_stream_13",op_role:0,peer:1,ring_id:13,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
}
