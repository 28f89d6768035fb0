{
    ^kw:
        %kwarg_var_32_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_2.w_0.dist_beta2_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%1) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_2.w_0.dist_beta1_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%2) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_2.w_0.dist_moment2_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[8,16],stop_gradient:[true]} : () -> tensor<8x16xf32>
    (%3) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_2.w_0.dist_moment1_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[8,16],stop_gradient:[true]} : () -> tensor<8x16xf32>
    (%4) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_2.b_0.dist_beta2_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%5) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_2.b_0.dist_beta1_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%6) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_2.b_0.dist_moment2_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>
    (%7) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_2.b_0.dist_moment1_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>
    (%8) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_3.w_0.dist_beta2_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%9) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_3.w_0.dist_beta1_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%10) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_3.w_0.dist_moment2_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[16,8],stop_gradient:[true]} : () -> tensor<16x8xf32>
    (%11) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_3.w_0.dist_moment1_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[16,8],stop_gradient:[true]} : () -> tensor<16x8xf32>
    (%12) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_3.b_0.dist_beta2_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%13) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_3.b_0.dist_beta1_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%14) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_3.b_0.dist_moment2_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[8],stop_gradient:[true]} : () -> tensor<8xf32>
    (%15) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_3.b_0.dist_moment1_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[8],stop_gradient:[true]} : () -> tensor<8xf32>
    (%16) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_4.w_0.dist_beta2_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%17) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_4.w_0.dist_beta1_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%18) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_4.w_0.dist_moment2_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[8,4],stop_gradient:[true]} : () -> tensor<8x4xf32>
    (%19) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_4.w_0.dist_moment1_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[8,4],stop_gradient:[true]} : () -> tensor<8x4xf32>
    (%20) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_4.b_0.dist_beta2_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%21) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_4.b_0.dist_beta1_pow_acc_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
    (%22) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_4.b_0.dist_moment2_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
    (%23) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"linear_4.b_0.dist_moment1_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
    (%24) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%25) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4xf32>
    (%26) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x4xf32>
    (%27) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%28) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%29) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%30) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%31) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"label0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf32>
    (%32) = "pd_op.matmul" (%kwarg_var_32_pd_op.recv_v2_0, %30) {chunk_id:-1,events_to_wait:["var_32_pd_op.recv_v2_0"],op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_1/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%32) {output_name:"var_33_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%33) = "pd_op.add" (%32, %29) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_1/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%34) = "pd_op.relu" (%33) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_1/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%34) {output_name:"var_35_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%35) = "pd_op.matmul" (%34, %28) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_1/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%35) {output_name:"var_36_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%36) = "pd_op.add" (%35, %27) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/MyLinear_1/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%36) {output_name:"var_37_pd_op.add_0"} : (tensor<2x8xf32>) -> 
    (%37) = "pd_op.matmul" (%36, %26) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%37) {output_name:"var_38_pd_op.matmul_0"} : (tensor<2x4xf32>) -> 
    (%38) = "pd_op.add" (%37, %25) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/Linear/"} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%38) {output_name:"var_39_pd_op.add_0"} : (tensor<2x4xf32>) -> 
    (%39) = "pd_op.subtract" (%38, %31) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%39) {output_name:"var_40_pd_op.subtract_0"} : (tensor<2x4xf32>) -> 
    (%40) = "pd_op.square" (%39) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%40) {output_name:"var_41_pd_op.square_0"} : (tensor<2x4xf32>) -> 
    (%41) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/MSELoss/",value:[]} : () -> tensor<0xi64>
    () = "builtin.shadow_output" (%41) {output_name:"var_42_pd_op.full_int_array_0"} : (tensor<0xi64>) -> 
    (%42) = "pd_op.mean" (%40, %41) {chunk_id:-1,keepdim:false,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<0xi64>) -> tensor<f32>
    () = "builtin.shadow_output" (%42) {chunk_id:-1,op_role:0,output_name:"loss_0"} : (tensor<f32>) -> 
}
