{
    ^kw:
        %kwarg_var_5_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_5.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_5.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%5) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/GlobalMLP/GlobalInputNet/",value:0.5} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%5) {output_name:"var_6_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%6) = "pd_op.scale" (%kwarg_var_5_pd_op.recv_v2_0, %5) {bias:0,bias_after_scale:true,chunk_id:-1,events_to_wait:["var_5_pd_op.recv_v2_0"],op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GlobalInputNet/"} : (tensor<2x8xf32>, tensor<1xf32>) -> tensor<2x8xf32>
    (%7) = "pd_op.broadcast" (%6) {chunk_id:-1,op_role:0,ring_id:16,root:2,stop_gradient:[false]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    (%8) = "pd_op.share_data_" (%7) {chunk_id:-1,op_role:0,stop_gradient:[false]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%8) {output_name:"var_9_pd_op.share_data__0"} : (tensor<2x8xf32>) -> 
    (%9) = "pd_op.add" (%kwarg_var_5_pd_op.recv_v2_0, %8) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_2/"} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%9) {output_name:"var_10_pd_op.add_0"} : (tensor<2x8xf32>) -> 
    (%10) = "pd_op.matmul" (%9, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_2/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%10) {output_name:"var_11_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%11) = "pd_op.add" (%10, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_2/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%12) = "pd_op.relu" (%11) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_2/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%12) {output_name:"var_13_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%13) = "pd_op.matmul" (%12, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_2/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%13) {output_name:"var_14_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%14) = "pd_op.add" (%13, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_2/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "pd_op.send_v2" (%14) {chunk_id:-1,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:0,peer:1,ring_id:17,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
    (%15) = "pd_op.share_data_" (%7) {chunk_id:-1,op_role:0,stop_gradient:[false]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
}
