{
    ^kw:
        %kwarg_linear_8.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_7.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_6.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_8.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_label0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_7.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_25_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_8.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_6.w_0.dist {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.matmul" (%kwarg_var_25_pd_op.recv_v2_0, %kwarg_linear_6.w_0.dist) {chunk_id:1,events_to_wait:["var_25_pd_op.recv_v2_0"],op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_3/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%0) {output_name:"var_26_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%1) = "pd_op.add" (%0, %kwarg_linear_6.b_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_3/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%2) = "pd_op.relu" (%1) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_3/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%2) {output_name:"var_28_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%3) = "pd_op.matmul" (%2, %kwarg_linear_7.w_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_3/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%3) {output_name:"var_29_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%4) = "pd_op.add" (%3, %kwarg_linear_7.b_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_3/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    (%5) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/PipelineMLP/MyLinear_3/",value:1} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%5) {output_name:"var_31_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%6) = "pd_op.scale" (%4, %5) {bias:0.1,bias_after_scale:true,chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_3/"} : (tensor<2x8xf32>, tensor<1xf32>) -> tensor<2x8xf32>
    (%7) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/PipelineMLP/MyLinear_3/",value:1} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%7) {output_name:"var_33_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%8) = "pd_op.scale" (%6, %7) {bias:-0.3,bias_after_scale:true,chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_3/"} : (tensor<2x8xf32>, tensor<1xf32>) -> tensor<2x8xf32>
    (%9) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/PipelineMLP/MyLinear_3/",value:0.5} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%9) {output_name:"var_35_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%10) = "pd_op.scale" (%8, %9) {bias:0,bias_after_scale:true,chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_3/"} : (tensor<2x8xf32>, tensor<1xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%10) {output_name:"var_36_pd_op.scale_0"} : (tensor<2x8xf32>) -> 
    (%11) = "pd_op.matmul" (%10, %kwarg_linear_8.w_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%11) {output_name:"var_37_pd_op.matmul_0"} : (tensor<2x4xf32>) -> 
    (%12) = "pd_op.add" (%11, %kwarg_linear_8.b_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/Linear/"} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%12) {output_name:"var_38_pd_op.add_0"} : (tensor<2x4xf32>) -> 
    (%13) = "pd_op.subtract" (%12, %kwarg_label0) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%13) {output_name:"var_39_pd_op.subtract_0"} : (tensor<2x4xf32>) -> 
    (%14) = "pd_op.square" (%13) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%14) {output_name:"var_40_pd_op.square_0"} : (tensor<2x4xf32>) -> 
    (%15) = "pd_op.full_int_array" () {chunk_id:1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/MSELoss/",value:[]} : () -> tensor<0xi64>
    () = "builtin.shadow_output" (%15) {output_name:"var_41_pd_op.full_int_array_0"} : (tensor<0xi64>) -> 
    (%16) = "pd_op.mean" (%14, %15) {chunk_id:1,keepdim:false,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<0xi64>) -> tensor<f32>
    () = "builtin.shadow_output" (%16) {chunk_id:1,op_role:0,output_name:"loss_0"} : (tensor<f32>) -> 
}
