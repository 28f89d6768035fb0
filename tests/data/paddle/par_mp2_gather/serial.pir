{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_2.b_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4xf32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_2.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x4xf32>
    (%2) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_1.b_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%3) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_1.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%4) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_0.b_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%5) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_0.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%6) = "pd_op.data" () {dtype:float32,name:"input0",place:Place(undefined:0),shape:[4,4,8],stop_gradient:[false]} : () -> tensor<4x4x8xf32>
    (%7) = "pd_op.data" () {dtype:float32,name:"label0",place:Place(undefined:0),shape:[4,4,4],stop_gradient:[false]} : () -> tensor<4x4x4xf32>
    (%8) = "pd_op.matmul" (%6, %5) {stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear/",transpose_x:false,transpose_y:false} : (tensor<4x4x8xf32>, tensor<8x16xf32>) -> tensor<4x4x16xf32>
    (%9) = "pd_op.add" (%8, %4) {stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear/"} : (tensor<4x4x16xf32>, tensor<16xf32>) -> tensor<4x4x16xf32>
    (%10) = "pd_op.relu" (%9) {stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/"} : (tensor<4x4x16xf32>) -> tensor<4x4x16xf32>
    (%11) = "pd_op.matmul" (%10, %3) {stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<4x4x16xf32>, tensor<16x8xf32>) -> tensor<4x4x8xf32>
    (%12) = "pd_op.add" (%11, %2) {stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear_1/"} : (tensor<4x4x8xf32>, tensor<8xf32>) -> tensor<4x4x8xf32>
    (%13) = "pd_op.matmul" (%12, %1) {stop_gradient:[false],struct_name:"/ParallelMLP/Linear/",transpose_x:false,transpose_y:false} : (tensor<4x4x8xf32>, tensor<8x4xf32>) -> tensor<4x4x4xf32>
    (%14) = "pd_op.add" (%13, %0) {stop_gradient:[false],struct_name:"/ParallelMLP/Linear/"} : (tensor<4x4x4xf32>, tensor<4xf32>) -> tensor<4x4x4xf32>
    (%15) = "pd_op.subtract" (%14, %7) {stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<4x4x4xf32>, tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
    (%16) = "pd_op.square" (%15) {stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
    (%17) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],struct_name:"/MSELoss/",value:[]} : () -> tensor<0xi64>
    (%18) = "pd_op.mean" (%16, %17) {keepdim:false,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<4x4x4xf32>, tensor<0xi64>) -> tensor<f32>
    () = "builtin.shadow_output" (%18) {output_name:"loss_0"} : (tensor<f32>) -> 
}
