{
    ^kw:
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%5) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"input0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>
    (%6) = "pd_op.matmul" (%5, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%6) {output_name:"var_6_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%7) = "pd_op.add" (%6, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%8) = "pd_op.relu" (%7) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%8) {output_name:"var_8_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%9) = "pd_op.matmul" (%8, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%9) {output_name:"var_9_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%10) = "pd_op.add" (%9, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "pd_op.send_v2" (%10) {chunk_id:-1,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:0,peer:1,ring_id:14,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
}
