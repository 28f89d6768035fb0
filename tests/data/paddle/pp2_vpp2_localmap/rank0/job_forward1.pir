{
    ^kw:
        %kwarg_linear_5.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_5.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_22_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.matmul" (%kwarg_var_22_pd_op.recv_v2_0, %kwarg_linear_4.w_0.dist) {chunk_id:1,events_to_wait:["var_22_pd_op.recv_v2_0"],op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_2/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%0) {output_name:"var_23_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%1) = "pd_op.add" (%0, %kwarg_linear_4.b_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_2/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%2) = "pd_op.relu" (%1) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_2/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%2) {output_name:"var_25_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%3) = "pd_op.matmul" (%2, %kwarg_linear_5.w_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_2/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%3) {output_name:"var_26_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%4) = "pd_op.add" (%3, %kwarg_linear_5.b_0.dist) {chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_2/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    (%5) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/PipelineMLP/MyLinear_2/",value:1} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%5) {output_name:"var_28_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%6) = "pd_op.scale" (%4, %5) {bias:0.1,bias_after_scale:true,chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_2/"} : (tensor<2x8xf32>, tensor<1xf32>) -> tensor<2x8xf32>
    (%7) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/PipelineMLP/MyLinear_2/",value:1} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%7) {output_name:"var_30_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%8) = "pd_op.scale" (%6, %7) {bias:-0.3,bias_after_scale:true,chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_2/"} : (tensor<2x8xf32>, tensor<1xf32>) -> tensor<2x8xf32>
    (%9) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/PipelineMLP/MyLinear_2/",value:0.5} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%9) {output_name:"var_32_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%10) = "pd_op.scale" (%8, %9) {bias:0,bias_after_scale:true,chunk_id:1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_2/"} : (tensor<2x8xf32>, tensor<1xf32>) -> tensor<2x8xf32>
    () = "pd_op.send_v2" (%10) {chunk_id:1,dynamic_shape:false,execution_stream:"send_stream_12",op_role:0,peer:1,ring_id:12,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
}
