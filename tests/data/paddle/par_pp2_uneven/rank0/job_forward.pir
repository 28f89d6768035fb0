{
    ^kw:
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%5) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%6) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%7) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%8) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%9) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"input0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>
    (%10) = "pd_op.matmul" (%9, %8) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%10) {output_name:"var_10_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%11) = "pd_op.add" (%10, %7) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%12) = "pd_op.relu" (%11) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%12) {output_name:"var_12_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%13) = "pd_op.matmul" (%12, %6) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%13) {output_name:"var_13_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%14) = "pd_op.add" (%13, %5) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%14) {output_name:"var_14_pd_op.add_0"} : (tensor<2x8xf32>) -> 
    (%15) = "pd_op.matmul" (%14, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%15) {output_name:"var_15_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%16) = "pd_op.add" (%15, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%17) = "pd_op.relu" (%16) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%17) {output_name:"var_17_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%18) = "pd_op.matmul" (%17, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%18) {output_name:"var_18_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%19) = "pd_op.add" (%18, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "pd_op.send_v2" (%19) {chunk_id:-1,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:0,peer:1,ring_id:12,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
}
