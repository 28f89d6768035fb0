{
    ^kw:
        %kwarg_var_12_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_8.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_8.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x4xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_7.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_7.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%5) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_6.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%6) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_6.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%7) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_5.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%8) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_5.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%9) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%10) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%11) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"label0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf32>
    (%12) = "pd_op.matmul" (%kwarg_var_12_pd_op.recv_v2_0, %10) {chunk_id:-1,events_to_wait:["var_12_pd_op.recv_v2_0"],op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/DecoderBlock/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%12) {output_name:"var_13_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%13) = "pd_op.add" (%12, %9) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/DecoderBlock/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%14) = "pd_op.relu" (%13) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/DecoderBlock/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%14) {output_name:"var_15_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%15) = "pd_op.matmul" (%14, %8) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/DecoderBlock/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%15) {output_name:"var_16_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%16) = "pd_op.add" (%15, %7) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/DecoderBlock/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%16) {output_name:"var_17_pd_op.add_0"} : (tensor<2x8xf32>) -> 
    (%17) = "pd_op.matmul" (%16, %6) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/DecoderBlock_1/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%17) {output_name:"var_18_pd_op.matmul_0"} : (tensor<2x16xf32>) -> 
    (%18) = "pd_op.add" (%17, %5) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/DecoderBlock_1/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%19) = "pd_op.relu" (%18) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/DecoderBlock_1/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    () = "builtin.shadow_output" (%19) {output_name:"var_20_pd_op.relu_0"} : (tensor<2x16xf32>) -> 
    (%20) = "pd_op.matmul" (%19, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/DecoderBlock_1/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%20) {output_name:"var_21_pd_op.matmul_0"} : (tensor<2x8xf32>) -> 
    (%21) = "pd_op.add" (%20, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/DecoderBlock_1/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%21) {output_name:"var_22_pd_op.add_0"} : (tensor<2x8xf32>) -> 
    (%22) = "pd_op.matmul" (%21, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%22) {output_name:"var_23_pd_op.matmul_0"} : (tensor<2x4xf32>) -> 
    (%23) = "pd_op.add" (%22, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/Linear/"} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%23) {output_name:"var_24_pd_op.add_0"} : (tensor<2x4xf32>) -> 
    (%24) = "pd_op.subtract" (%23, %11) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%24) {output_name:"var_25_pd_op.subtract_0"} : (tensor<2x4xf32>) -> 
    (%25) = "pd_op.square" (%24) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    () = "builtin.shadow_output" (%25) {output_name:"var_26_pd_op.square_0"} : (tensor<2x4xf32>) -> 
    (%26) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/MSELoss/",value:[]} : () -> tensor<0xi64>
    () = "builtin.shadow_output" (%26) {output_name:"var_27_pd_op.full_int_array_0"} : (tensor<0xi64>) -> 
    (%27) = "pd_op.mean" (%25, %26) {chunk_id:-1,keepdim:false,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<0xi64>) -> tensor<f32>
    () = "builtin.shadow_output" (%27) {chunk_id:-1,op_role:0,output_name:"loss_0"} : (tensor<f32>) -> 
}
