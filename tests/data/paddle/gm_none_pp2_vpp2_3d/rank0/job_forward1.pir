{
    ^kw:
        %kwarg_linear_5.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_21_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_20_pd_op.share_data__0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_5.w_0.dist {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.add" (%kwarg_var_21_pd_op.recv_v2_0, %kwarg_var_20_pd_op.share_data__0) {chunk_id:1,events_to_wait:["var_21_pd_op.recv_v2_0"],op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_2/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%0) {output_name:"var_22_pd_op.add_0"} : (tensor<2x8xf32>) -> 
    (%1) = "pd_op.matmul" (%0, %kwarg_linear_4.w_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_2/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%1) {output_name:"var_23_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%2) = "pd_op.add" (%1, %kwarg_linear_4.b_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_2/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%3) = "pd_op.relu" (%2) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_2/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%3) {output_name:"var_25_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%4) = "pd_op.matmul" (%3, %kwarg_linear_5.w_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_2/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%4) {output_name:"var_26_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%5) = "pd_op.add" (%4, %kwarg_linear_5.b_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear_2/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "pd_op.send_v2" (%5) {chunk_id:1,dynamic_shape:false,execution_stream:"send_stream_13",op_role:0,peer:1,ring_id:13,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
}
