{
    ^kw:
        %kwarg_linear_1.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_5.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_13_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_12_pd_op.relu_0 {persistable:false,place:Place(cpu)}
        %kwarg_input0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_0.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_10_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.recv_v2" () {chunk_id:0,dtype:float32,dynamic_shape:false,execution_stream:"recv_stream",op_role:1,out_shape:[2,8],peer:0,ring_id:13,scheduling_priority:0,stop_gradient:[true],use_calc_stream:true} : () -> tensor<2x8xf32>
    (%1, %2) = "pd_op.add_grad" (%kwarg_var_13_pd_op.matmul_0, %kwarg_linear_1.b_0.dist, %0) {axis:-1,chunk_id:0,op_role:1,stop_gradient:[false,false]} : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>, tensor<8xf32>
    (%3) = "pd_op.add_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %2) {chunk_id:0,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%4, %5) = "pd_op.matmul_grad" (%kwarg_var_12_pd_op.relu_0, %kwarg_linear_1.w_0.dist, %1) {chunk_id:0,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>, tensor<16x8xf32>
    (%6) = "pd_op.add_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %5) {chunk_id:0,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%7) = "pd_op.relu_grad" (%kwarg_var_12_pd_op.relu_0, %4) {chunk_id:0,op_role:1,stop_gradient:[false]} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    (%8, %9) = "pd_op.add_grad" (%kwarg_var_10_pd_op.matmul_0, %kwarg_linear_0.b_0.dist, %7) {axis:-1,chunk_id:0,op_role:1,stop_gradient:[false,false]} : (tensor<2x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>, tensor<16xf32>
    (%10) = "pd_op.add_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %9) {chunk_id:0,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    (%11, %12) = "pd_op.matmul_grad" (%kwarg_input0, %kwarg_linear_0.w_0.dist, %8) {chunk_id:0,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<2x16xf32>) -> <<NULL TYPE>>, tensor<8x16xf32>
    (%13) = "pd_op.add_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %12) {chunk_id:0,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
}
