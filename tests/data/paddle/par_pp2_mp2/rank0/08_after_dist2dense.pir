{
    ^kw:
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%5) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"input0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,4,8],stop_gradient:[true]} : () -> tensor<2x4x8xf32>
    (%6) = "pd_op.matmul" (%5, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    (%7) = "pd_op.add" (%6, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear/"} : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
    (%8) = "pd_op.relu" (%7) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/"} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%9) = "pd_op.matmul" (%8, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    (%10) = "pd_op.all_reduce" (%9) {chunk_id:-1,op_role:0,reduce_type:0,ring_id:12,stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%11) = "pd_op.add" (%10, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear/Linear_1/"} : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
    () = "pd_op.send_v2" (%11) {chunk_id:-1,dynamic_shape:false,op_role:0,peer:1,ring_id:13,stop_gradient:[],use_calc_stream:true} : (tensor<2x4x8xf32>) -> 
    (%12) = "pd_op.recv_v2" () {chunk_id:-1,dtype:float32,dynamic_shape:false,op_role:1,out_shape:[2,4,8],peer:0,ring_id:14,stop_gradient:[true],use_calc_stream:true} : () -> tensor<2x4x8xf32>
    (%13) = "pd_op.all_reduce" (%12) {chunk_id:-1,op_role:1,reduce_type:0,ring_id:12,stop_gradient:[true]} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%14, %15) = "pd_op.add_grad" (%10, %1, %13) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%16) = "pd_op.add_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %15) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%17, %18) = "pd_op.matmul_grad" (%8, %2, %14) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%19) = "pd_op.add_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %18) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%20) = "pd_op.relu_grad" (%8, %17) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%21, %22) = "pd_op.add_grad" (%6, %3, %20) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%23) = "pd_op.add_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %22) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%24, %25) = "pd_op.matmul_grad" (%5, %4, %21) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> <<NULL TYPE>>, tensor<8x8xf32>
    (%26) = "pd_op.add_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %25) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%27) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%28) = "pd_op.scale_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %27) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%29, %30) = "pd_op.sgd_" (%1, %0, %28, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%31) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%32) = "pd_op.scale_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %31) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>) -> tensor<8x8xf32>
    (%33, %34) = "pd_op.sgd_" (%2, %0, %32, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x8xf32>, tensor<f32>, tensor<8x8xf32>, <<NULL TYPE>>) -> tensor<8x8xf32>, <<NULL TYPE>>
    (%35) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%36) = "pd_op.scale_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %35) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%37, %38) = "pd_op.sgd_" (%3, %0, %36, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%39) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%40) = "pd_op.scale_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %39) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>) -> tensor<8x8xf32>
    (%41, %42) = "pd_op.sgd_" (%4, %0, %40, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x8xf32>, tensor<f32>, tensor<8x8xf32>, <<NULL TYPE>>) -> tensor<8x8xf32>, <<NULL TYPE>>
    (%43) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%44) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%45) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%46) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%47) = "pd_op.set_value_with_tensor_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %43, %44, %45, %46) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%48) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%49) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%50) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%51) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%52) = "pd_op.set_value_with_tensor_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %48, %49, %50, %51) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16x8xf32>
    (%53) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%54) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%55) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%56) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%57) = "pd_op.set_value_with_tensor_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %53, %54, %55, %56) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16xf32>
    (%58) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%59) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%60) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%61) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%62) = "pd_op.set_value_with_tensor_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %58, %59, %60, %61) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
}
