{
    ^kw:
        %kwarg_linear_6.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_5.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_8_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_5.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_9_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_11_pd_op.relu_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_12_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_5.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_loss_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_label0 {persistable:false,place:Place(cpu)}
        %kwarg_var_16_pd_op.subtract_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_6.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_18_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_17_pd_op.square_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_14_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_15_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_13_pd_op.add_0 {persistable:false,place:Place(cpu)}
    (%0) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:1,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%1) = "pd_op.full_like" (%kwarg_loss_0, %0) {chunk_id:-1,dtype:float32,op_role:1,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f32>, tensor<1xf32>) -> tensor<f32>
    (%2) = "pd_op.mean_grad" (%kwarg_var_17_pd_op.square_0, %1, %kwarg_var_18_pd_op.full_int_array_0) {chunk_id:-1,keepdim:false,op_role:1,reduce_all:false,stop_gradient:[false]} : (tensor<2x4xf32>, tensor<f32>, tensor<0xi64>) -> tensor<2x4xf32>
    (%3) = "pd_op.square_grad" (%kwarg_var_16_pd_op.subtract_0, %2) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    (%4, %5) = "pd_op.subtract_grad" (%kwarg_var_15_pd_op.add_0, %kwarg_label0, %3) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>, <<NULL TYPE>>
    (%6, %7) = "pd_op.add_grad" (%kwarg_var_14_pd_op.matmul_0, %kwarg_linear_6.b_0.dist, %4) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>, tensor<4xf32>
    (%8) = "pd_op.add_" (%kwarg_linear_6.b_0.dist@GRAD@MERGE, %7) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    (%9, %10) = "pd_op.matmul_grad" (%kwarg_var_13_pd_op.add_0, %kwarg_linear_6.w_0.dist, %6) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>, tensor<8x4xf32>
    (%11) = "pd_op.add_" (%kwarg_linear_6.w_0.dist@GRAD@MERGE, %10) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    (%12, %13) = "pd_op.add_grad" (%kwarg_var_12_pd_op.matmul_0, %kwarg_linear_5.b_0.dist, %9) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>, tensor<8xf32>
    (%14) = "pd_op.add_" (%kwarg_linear_5.b_0.dist@GRAD@MERGE, %13) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%15, %16) = "pd_op.matmul_grad" (%kwarg_var_11_pd_op.relu_0, %kwarg_linear_5.w_0.dist, %12) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>, tensor<16x8xf32>
    (%17) = "pd_op.add_" (%kwarg_linear_5.w_0.dist@GRAD@MERGE, %16) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%18) = "pd_op.relu_grad" (%kwarg_var_11_pd_op.relu_0, %15) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    (%19, %20) = "pd_op.add_grad" (%kwarg_var_9_pd_op.matmul_0, %kwarg_linear_4.b_0.dist, %18) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>, tensor<16xf32>
    (%21) = "pd_op.add_" (%kwarg_linear_4.b_0.dist@GRAD@MERGE, %20) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    (%22, %23) = "pd_op.matmul_grad" (%kwarg_var_8_pd_op.recv_v2_0, %kwarg_linear_4.w_0.dist, %19) {chunk_id:-1,event_to_record:"var_37_pd_op.matmul_grad_0",force_record_event:true,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<2x16xf32>) -> tensor<2x8xf32>, tensor<8x16xf32>
    () = "builtin.shadow_output" (%22) {output_name:"var_37_pd_op.matmul_grad_0"} : (tensor<2x8xf32>) -> 
    (%24) = "pd_op.add_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %23) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
}
