{
    ^kw:
        %kwarg_global_param_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%5) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"global_param_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%6) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"input0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>
    (%7) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/GlobalMLP/GlobalParam/",value:2} : () -> tensor<1xf32>
    () = "builtin.shadow_output" (%7) {output_name:"var_7_pd_op.full_0"} : (tensor<1xf32>) -> 
    (%8) = "pd_op.scale" (%5, %7) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GlobalParam/"} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%9) = "pd_op.broadcast" (%8) {chunk_id:-1,op_role:0,ring_id:12,root:0,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    (%10) = "pd_op.share_data_" (%9) {chunk_id:-1,op_role:0,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    () = "builtin.shadow_output" (%10) {output_name:"var_10_pd_op.share_data__0"} : (tensor<8xf32>) -> 
    (%11) = "pd_op.add" (%6, %10) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%11) {output_name:"var_11_pd_op.add_0"} : (tensor<2x8xf32>) -> 
    (%12) = "pd_op.matmul" (%11, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%12) {output_name:"var_12_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%13) = "pd_op.add" (%12, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%14) = "pd_op.relu" (%13) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%14) {output_name:"var_14_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%15) = "pd_op.matmul" (%14, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%15) {output_name:"var_15_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%16) = "pd_op.add" (%15, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "pd_op.send_v2" (%16) {chunk_id:-1,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:0,peer:1,ring_id:12,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
    (%17) = "pd_op.share_data_" (%9) {chunk_id:-1,op_role:0,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
}
