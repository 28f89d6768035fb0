{
    ^kw:
        %kwarg_linear_1.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_7_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_15_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_global_param_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_14_pd_op.relu_0 {persistable:false,place:Place(cpu)}
        %kwarg_input0 {persistable:false,place:Place(cpu)}
        %kwarg_var_12_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_11_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_10_pd_op.share_data__0 {persistable:false,place:Place(cpu)}
    (%0) = "pd_op.recv_v2" () {chunk_id:-1,dtype:float32,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:1,out_shape:[2,8],peer:0,ring_id:13,scheduling_priority:0,stop_gradient:[true],use_calc_stream:true} : () -> tensor<2x8xf32>
    (%1) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:1,place:Place(undefined:0),shape:[8],stop_gradient:[true],value:0} : () -> tensor<8xf32>
    (%2) = "pd_op.broadcast" (%1) {chunk_id:-1,op_role:1,ring_id:12,root:1,stop_gradient:[true]} : (tensor<8xf32>) -> tensor<8xf32>
    (%3, %4) = "pd_op.add_grad" (%kwarg_var_15_pd_op.matmul_0, %kwarg_linear_1.b_0.dist, %0) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>, tensor<8xf32>
    (%5) = "pd_op.add_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %4) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%6, %7) = "pd_op.matmul_grad" (%kwarg_var_14_pd_op.relu_0, %kwarg_linear_1.w_0.dist, %3) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>, tensor<16x8xf32>
    (%8) = "pd_op.add_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %7) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%9) = "pd_op.relu_grad" (%kwarg_var_14_pd_op.relu_0, %6) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    (%10, %11) = "pd_op.add_grad" (%kwarg_var_12_pd_op.matmul_0, %kwarg_linear_0.b_0.dist, %9) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>, tensor<16xf32>
    (%12) = "pd_op.add_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %11) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    (%13, %14) = "pd_op.matmul_grad" (%kwarg_var_11_pd_op.add_0, %kwarg_linear_0.w_0.dist, %10) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<2x16xf32>) -> tensor<2x8xf32>, tensor<8x16xf32>
    (%15) = "pd_op.add_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %14) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%16, %17) = "pd_op.add_grad" (%kwarg_input0, %kwarg_var_10_pd_op.share_data__0, %13) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> <<NULL TYPE>>, tensor<8xf32>
    (%18) = "pd_op.broadcast" (%17) {chunk_id:-1,op_role:1,ring_id:12,root:0,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    (%19) = "builtin.combine" (%2, %18) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> vec[tensor<8xf32>,tensor<8xf32>]
    (%20) = "pd_op.add_n" (%19) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<8xf32>,tensor<8xf32>]) -> tensor<8xf32>
    (%21) = "pd_op.scale" (%20, %kwarg_var_7_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%22) = "pd_op.add_" (%kwarg_global_param_0.w_0.dist@GRAD@MERGE, %21) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
}
