{
    ^kw:
        %kwarg_var_11_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_6.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_8.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_8.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x4xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_7.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_7.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%5) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_6.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%6) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_6.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%7) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"label0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf32>
    (%8) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(undefined:0),shape:[2,8],stop_gradient:[true],value:0} : () -> tensor<2x8xf32>
    (%9) = "pd_op.broadcast" (%8) {chunk_id:-1,op_role:0,ring_id:16,root:2,stop_gradient:[true]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    (%10) = "pd_op.share_data_" (%9) {chunk_id:-1,op_role:0,stop_gradient:[true]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    (%11) = "pd_op.share_data_" (%9) {chunk_id:-1,op_role:0,stop_gradient:[true]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%11) {output_name:"var_12_pd_op.share_data__0"} : (tensor<2x8xf32>) -> 
    (%12) = "pd_op.add" (%kwarg_var_11_pd_op.recv_v2_0, %11) {chunk_id:-1,events_to_wait:["var_11_pd_op.recv_v2_0"],op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_3/"} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%12) {output_name:"var_13_pd_op.add_0"} : (tensor<2x8xf32>) -> 
    (%13) = "pd_op.matmul" (%12, %6) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_3/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%13) {output_name:"var_14_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%14) = "pd_op.add" (%13, %5) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_3/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%15) = "pd_op.relu" (%14) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_3/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%15) {output_name:"var_16_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%16) = "pd_op.matmul" (%15, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_3/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%16) {output_name:"var_17_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%17) = "pd_op.add" (%16, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_3/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%17) {output_name:"var_18_pd_op.add_0"} : (tensor<2x8xf32>) -> 
    (%18) = "pd_op.matmul" (%17, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%18) {output_name:"var_19_pd_op.matmul_0"} : (tensor<2x4xf32>) -> 
    (%19) = "pd_op.add" (%18, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/Linear/"} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%19) {output_name:"var_20_pd_op.add_0"} : (tensor<2x4xf32>) -> 
    (%20) = "pd_op.subtract" (%19, %7) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%20) {output_name:"var_21_pd_op.subtract_0"} : (tensor<2x4xf32>) -> 
    (%21) = "pd_op.square" (%20) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%21) {output_name:"var_22_pd_op.square_0"} : (tensor<2x4xf32>) -> 
    (%22) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/MSELoss/",value:[]} : () -> tensor<0xi64>
    () = "builtin.shadow_output" (%22) {output_name:"var_23_pd_op.full_int_array_0"} : (tensor<0xi64>) -> 
    (%23) = "pd_op.mean" (%21, %22) {chunk_id:-1,keepdim:false,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<0xi64>) -> tensor<f32>
    () = "builtin.shadow_output" (%23) {chunk_id:-1,op_role:0,output_name:"loss_0"} : (tensor<f32>) -> 
}
