{
    ^kw:
        %kwarg_linear_7.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_6.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_6.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_5.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_5.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_21_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_28_pd_op.square_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_8.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_16_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_loss_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_7.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_15_pd_op.relu_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_20_pd_op.relu_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_23_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_13_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_24_pd_op.scale_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_8.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_8.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_26_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_27_pd_op.subtract_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_25_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_18_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_label0 {persistable:false,place:Place(cpu)}
        %kwarg_var_29_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_17_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_12_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.b_0.dist {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:1,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%1) = "pd_op.full_like" (%kwarg_loss_0, %0) {chunk_id:-1,dtype:float32,op_role:1,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f32>, tensor<1xf32>) -> tensor<f32>
    (%2) = "pd_op.mean_grad" (%kwarg_var_28_pd_op.square_0, %1, %kwarg_var_29_pd_op.full_int_array_0) {chunk_id:-1,keepdim:false,op_role:1,reduce_all:false,stop_gradient:[false]} : (tensor<2x4xf32>, tensor<f32>, tensor<0xi64>) -> tensor<2x4xf32>
    (%3) = "pd_op.square_grad" (%kwarg_var_27_pd_op.subtract_0, %2) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    (%4, %5) = "pd_op.subtract_grad" (%kwarg_var_26_pd_op.add_0, %kwarg_label0, %3) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>, <<NULL TYPE>>
    (%6, %7) = "pd_op.add_grad" (%kwarg_var_25_pd_op.matmul_0, %kwarg_linear_8.b_0.dist, %4) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>, tensor<4xf32>
    (%8) = "pd_op.add_" (%kwarg_linear_8.b_0.dist@GRAD@MERGE, %7) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    (%9, %10) = "pd_op.matmul_grad" (%kwarg_var_24_pd_op.scale_0, %kwarg_linear_8.w_0.dist, %6) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>, tensor<8x4xf32>
    (%11) = "pd_op.add_" (%kwarg_linear_8.w_0.dist@GRAD@MERGE, %10) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    (%12) = "pd_op.scale" (%9, %kwarg_var_23_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x8xf32>, tensor<1xf32>) -> tensor<2x8xf32>
    (%13, %14) = "pd_op.add_grad" (%kwarg_var_21_pd_op.matmul_0, %kwarg_linear_7.b_0.dist, %12) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>, tensor<8xf32>
    (%15) = "pd_op.add_" (%kwarg_linear_7.b_0.dist@GRAD@MERGE, %14) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%16, %17) = "pd_op.matmul_grad" (%kwarg_var_20_pd_op.relu_0, %kwarg_linear_7.w_0.dist, %13) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>, tensor<16x8xf32>
    (%18) = "pd_op.add_" (%kwarg_linear_7.w_0.dist@GRAD@MERGE, %17) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%19) = "pd_op.relu_grad" (%kwarg_var_20_pd_op.relu_0, %16) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    (%20, %21) = "pd_op.add_grad" (%kwarg_var_18_pd_op.matmul_0, %kwarg_linear_6.b_0.dist, %19) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>, tensor<16xf32>
    (%22) = "pd_op.add_" (%kwarg_linear_6.b_0.dist@GRAD@MERGE, %21) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    (%23, %24) = "pd_op.matmul_grad" (%kwarg_var_17_pd_op.add_0, %kwarg_linear_6.w_0.dist, %20) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<2x16xf32>) -> tensor<2x8xf32>, tensor<8x16xf32>
    (%25) = "pd_op.add_" (%kwarg_linear_6.w_0.dist@GRAD@MERGE, %24) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%26, %27) = "pd_op.add_grad" (%kwarg_var_16_pd_op.matmul_0, %kwarg_linear_5.b_0.dist, %23) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>, tensor<8xf32>
    (%28) = "pd_op.add_" (%kwarg_linear_5.b_0.dist@GRAD@MERGE, %27) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%29, %30) = "pd_op.matmul_grad" (%kwarg_var_15_pd_op.relu_0, %kwarg_linear_5.w_0.dist, %26) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>, tensor<16x8xf32>
    (%31) = "pd_op.add_" (%kwarg_linear_5.w_0.dist@GRAD@MERGE, %30) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%32) = "pd_op.relu_grad" (%kwarg_var_15_pd_op.relu_0, %29) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    (%33, %34) = "pd_op.add_grad" (%kwarg_var_13_pd_op.matmul_0, %kwarg_linear_4.b_0.dist, %32) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>, tensor<16xf32>
    (%35) = "pd_op.add_" (%kwarg_linear_4.b_0.dist@GRAD@MERGE, %34) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    (%36, %37) = "pd_op.matmul_grad" (%kwarg_var_12_pd_op.recv_v2_0, %kwarg_linear_4.w_0.dist, %33) {chunk_id:-1,event_to_record:"var_58_pd_op.matmul_grad_0",force_record_event:true,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<2x16xf32>) -> tensor<2x8xf32>, tensor<8x16xf32>
    () = "builtin.shadow_output" (%36) {output_name:"var_58_pd_op.matmul_grad_0"} : (tensor<2x8xf32>) -> 
    (%38) = "pd_op.add_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %37) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
}
