{
    ^kw:
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_8_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x4xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%5) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%6) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%7) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"label0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf32>
    (%8) = "pd_op.matmul" (%kwarg_var_8_pd_op.recv_v2_0, %6) {chunk_id:-1,events_to_wait:["var_8_pd_op.recv_v2_0"],op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%8) {output_name:"var_9_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%9) = "pd_op.add" (%8, %5) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%10) = "pd_op.relu" (%9) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%10) {output_name:"var_11_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%11) = "pd_op.matmul" (%10, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%11) {output_name:"var_12_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%12) = "pd_op.add" (%11, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%12) {output_name:"var_13_pd_op.add_0"} : (tensor<2x8xf32>) -> 
    (%13) = "pd_op.matmul" (%12, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%13) {output_name:"var_14_pd_op.matmul_0"} : (tensor<2x4xf32>) -> 
    (%14) = "pd_op.add" (%13, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/Linear/"} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%14) {output_name:"var_15_pd_op.add_0"} : (tensor<2x4xf32>) -> 
    (%15) = "pd_op.subtract" (%14, %7) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%15) {output_name:"var_16_pd_op.subtract_0"} : (tensor<2x4xf32>) -> 
    (%16) = "pd_op.square" (%15) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%16) {output_name:"var_17_pd_op.square_0"} : (tensor<2x4xf32>) -> 
    (%17) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/MSELoss/",value:[]} : () -> tensor<0xi64>
    () = "builtin.shadow_output" (%17) {output_name:"var_18_pd_op.full_int_array_0"} : (tensor<0xi64>) -> 
    (%18) = "pd_op.mean" (%16, %17) {chunk_id:-1,keepdim:false,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<0xi64>) -> tensor<f32>
    () = "builtin.shadow_output" (%18) {chunk_id:-1,op_role:0,output_name:"loss_0"} : (tensor<f32>) -> 
}
