{
    ^kw:
        %kwarg_linear_4.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_8_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_9_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_2.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_11_pd_op.relu_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_12_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_loss_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_14_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_15_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_13_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_3.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_label0 {persistable:false,place:Place(cpu)}
        %kwarg_var_16_pd_op.subtract_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_18_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_17_pd_op.square_0 {persistable:false,place:Place(cpu)}
    (%0) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:1,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%1) = "pd_op.full_like" (%kwarg_loss_0, %0) {chunk_id:-1,dtype:float32,op_role:1,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f32>, tensor<1xf32>) -> tensor<f32>
    (%2) = "pd_op.all_gather" (%kwarg_var_17_pd_op.square_0) {chunk_id:-1,nranks:2,op_role:1,ring_id:16,stop_gradient:[false]} : (tensor<2x4xf32>) -> tensor<4x4xf32>
    (%3) = "pd_op.mean_grad" (%2, %1, %kwarg_var_18_pd_op.full_int_array_0) {chunk_id:-1,keepdim:false,op_role:1,reduce_all:false,replace_all_uses_with_reshard_var:true,stop_gradient:[false]} : (tensor<4x4xf32>, tensor<f32>, tensor<0xi64>) -> tensor<4x4xf32>
    (%4) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:1,place:Place(cpu),stop_gradient:[true],value:[0]} : () -> tensor<1xi64>
    (%5) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:1,place:Place(cpu),stop_gradient:[true],value:[2]} : () -> tensor<1xi64>
    (%6) = "pd_op.slice" (%3, %4, %5) {axes:[0],chunk_id:-1,decrease_axis:[],infer_flags:[1],op_role:1,stop_gradient:[false]} : (tensor<4x4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x4xf32>
    (%7) = "pd_op.square_grad" (%kwarg_var_16_pd_op.subtract_0, %6) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    (%8, %9) = "pd_op.subtract_grad" (%kwarg_var_15_pd_op.add_0, %kwarg_label0, %7) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>, <<NULL TYPE>>
    (%10, %11) = "pd_op.add_grad" (%kwarg_var_14_pd_op.matmul_0, %kwarg_linear_4.b_0.dist, %8) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>, tensor<4xf32>
    (%12) = "pd_op.add_" (%kwarg_linear_4.b_0.dist@GRAD@MERGE, %11) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    (%13, %14) = "pd_op.matmul_grad" (%kwarg_var_13_pd_op.add_0, %kwarg_linear_4.w_0.dist, %10) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>, tensor<8x4xf32>
    (%15) = "pd_op.add_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %14) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    (%16, %17) = "pd_op.add_grad" (%kwarg_var_12_pd_op.matmul_0, %kwarg_linear_3.b_0.dist, %13) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>, tensor<8xf32>
    (%18) = "pd_op.add_" (%kwarg_linear_3.b_0.dist@GRAD@MERGE, %17) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%19, %20) = "pd_op.matmul_grad" (%kwarg_var_11_pd_op.relu_0, %kwarg_linear_3.w_0.dist, %16) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>, tensor<16x8xf32>
    (%21) = "pd_op.add_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %20) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%22) = "pd_op.relu_grad" (%kwarg_var_11_pd_op.relu_0, %19) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    (%23, %24) = "pd_op.add_grad" (%kwarg_var_9_pd_op.matmul_0, %kwarg_linear_2.b_0.dist, %22) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>, tensor<16xf32>
    (%25) = "pd_op.add_" (%kwarg_linear_2.b_0.dist@GRAD@MERGE, %24) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    (%26, %27) = "pd_op.matmul_grad" (%kwarg_var_8_pd_op.recv_v2_0, %kwarg_linear_2.w_0.dist, %23) {chunk_id:-1,event_to_record:"var_41_pd_op.matmul_grad_0",force_record_event:true,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<2x16xf32>) -> tensor<2x8xf32>, tensor<8x16xf32>
    () = "builtin.shadow_output" (%26) {output_name:"var_41_pd_op.matmul_grad_0"} : (tensor<2x8xf32>) -> 
    (%28) = "pd_op.add_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %27) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
}
