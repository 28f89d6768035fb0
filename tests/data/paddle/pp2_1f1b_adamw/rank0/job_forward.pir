{
    ^kw:
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_0.w_0.dist_beta2_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%1) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_0.w_0.dist_beta1_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%2) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_0.w_0.dist_moment2_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[8,16],stop_gradient:[true]} : () -> tensor<8x16xf32>
    (%3) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_0.w_0.dist_moment1_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[8,16],stop_gradient:[true]} : () -> tensor<8x16xf32>
    (%4) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_0.b_0.dist_beta2_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%5) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_0.b_0.dist_beta1_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%6) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_0.b_0.dist_moment2_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>
    (%7) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_0.b_0.dist_moment1_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>
    (%8) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_1.w_0.dist_beta2_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%9) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_1.w_0.dist_beta1_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%10) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_1.w_0.dist_moment2_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[16,8],stop_gradient:[true]} : () -> tensor<16x8xf32>
    (%11) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_1.w_0.dist_moment1_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[16,8],stop_gradient:[true]} : () -> tensor<16x8xf32>
    (%12) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_1.b_0.dist_beta2_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%13) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_1.b_0.dist_beta1_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%14) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_1.b_0.dist_moment2_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[8],stop_gradient:[true]} : () -> tensor<8xf32>
    (%15) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_1.b_0.dist_moment1_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[8],stop_gradient:[true]} : () -> tensor<8xf32>
    (%16) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%17) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%18) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%19) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%20) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%21) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"input0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>
    (%22) = "pd_op.matmul" (%21, %20) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%22) {output_name:"var_22_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%23) = "pd_op.add" (%22, %19) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%24) = "pd_op.relu" (%23) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%24) {output_name:"var_24_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%25) = "pd_op.matmul" (%24, %18) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%25) {output_name:"var_25_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%26) = "pd_op.add" (%25, %17) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "pd_op.send_v2" (%26) {chunk_id:-1,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:0,peer:1,ring_id:12,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
}
