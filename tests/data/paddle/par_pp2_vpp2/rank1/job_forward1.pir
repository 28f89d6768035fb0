{
    ^kw:
        %kwarg_linear_8.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_7.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_6.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_8.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_label0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_6.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_19_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_8.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_6.w_0.dist {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.matmul" (%kwarg_var_19_pd_op.recv_v2_0, %kwarg_linear_6.w_0.dist) {chunk_id:1,events_to_wait:["var_19_pd_op.recv_v2_0"],op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_3/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%0) {output_name:"var_20_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%1) = "pd_op.add" (%0, %kwarg_linear_6.b_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_3/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%2) = "pd_op.relu" (%1) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_3/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%2) {output_name:"var_22_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%3) = "pd_op.matmul" (%2, %kwarg_linear_7.w_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_3/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%3) {output_name:"var_23_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%4) = "pd_op.add" (%3, %kwarg_linear_7.b_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_3/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%4) {output_name:"var_24_pd_op.add_0"} : (tensor<2x8xf32>) -> 
    (%5) = "pd_op.matmul" (%4, %kwarg_linear_8.w_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%5) {output_name:"var_25_pd_op.matmul_0"} : (tensor<2x4xf32>) -> 
    (%6) = "pd_op.add" (%5, %kwarg_linear_8.b_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/Linear/"} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%6) {output_name:"var_26_pd_op.add_0"} : (tensor<2x4xf32>) -> 
    (%7) = "pd_op.subtract" (%6, %kwarg_label0) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%7) {output_name:"var_27_pd_op.subtract_0"} : (tensor<2x4xf32>) -> 
    (%8) = "pd_op.square" (%7) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%8) {output_name:"var_28_pd_op.square_0"} : (tensor<2x4xf32>) -> 
    (%9) = "pd_op.full_int_array" () {chunk_id:1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/MSELoss/",value:[]} : () -> tensor<0xi64>
    () = "builtin.shadow_output" (%9) {output_name:"var_29_pd_op.full_int_array_0"} : (tensor<0xi64>) -> 
    (%10) = "pd_op.mean" (%8, %9) {chunk_id:1,keepdim:false,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<0xi64>) -> tensor<f32>
    () = "builtin.shadow_output" (%10) {chunk_id:1,op_role:0,output_name:"loss_0"} : (tensor<f32>) -> 
}
