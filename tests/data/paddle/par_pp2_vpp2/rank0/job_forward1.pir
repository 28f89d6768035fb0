{
    ^kw:
        %kwarg_linear_5.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_5.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_16_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.matmul" (%kwarg_var_16_pd_op.recv_v2_0, %kwarg_linear_4.w_0.dist) {chunk_id:1,events_to_wait:["var_16_pd_op.recv_v2_0"],op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_2/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%0) {output_name:"var_17_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%1) = "pd_op.add" (%0, %kwarg_linear_4.b_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_2/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%2) = "pd_op.relu" (%1) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_2/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%2) {output_name:"var_19_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%3) = "pd_op.matmul" (%2, %kwarg_linear_5.w_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_2/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%3) {output_name:"var_20_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%4) = "pd_op.add" (%3, %kwarg_linear_5.b_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_2/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "pd_op.send_v2" (%4) {chunk_id:1,dynamic_shape:false,execution_stream:"send_stream_12",op_role:0,peer:1,ring_id:12,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
}
