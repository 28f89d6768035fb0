{
    ^kw:
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_global_param_0.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%5) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"global_param_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%6) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"input0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>
    (%7) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],struct_name:"/GlobalMLP/GlobalParam/",value:2} : () -> tensor<1xf32>
    (%8) = "pd_op.scale" (%5, %7) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GlobalParam/"} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%9) = "pd_op.share_data_" (%8) {chunk_id:-1,op_role:0,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    (%10) = "pd_op.add" (%6, %9) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    (%11) = "pd_op.matmul" (%10, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    (%12) = "pd_op.add" (%11, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%13) = "pd_op.relu" (%12) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    (%14) = "pd_op.matmul" (%13, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    (%15) = "pd_op.add" (%14, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/GlobalMLP/GMyLinear/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "pd_op.send_v2" (%15) {chunk_id:-1,dynamic_shape:false,op_role:0,peer:1,ring_id:12,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
    (%16) = "pd_op.share_data_" (%8) {chunk_id:-1,op_role:0,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    (%17) = "pd_op.recv_v2" () {chunk_id:-1,dtype:float32,dynamic_shape:false,op_role:1,out_shape:[2,8],peer:0,ring_id:13,stop_gradient:[true],use_calc_stream:true} : () -> tensor<2x8xf32>
    (%18) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:1,place:Place(undefined:0),shape:[8],stop_gradient:[true],value:0} : () -> tensor<8xf32>
    (%19) = "pd_op.broadcast" (%18) {chunk_id:-1,op_role:1,ring_id:12,root:1,stop_gradient:[true]} : (tensor<8xf32>) -> tensor<8xf32>
    (%20, %21) = "pd_op.add_grad" (%14, %1, %17) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>, tensor<8xf32>
    (%22) = "pd_op.add_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %21) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%23, %24) = "pd_op.matmul_grad" (%13, %2, %20) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>, tensor<16x8xf32>
    (%25) = "pd_op.add_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %24) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%26) = "pd_op.relu_grad" (%13, %23) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    (%27, %28) = "pd_op.add_grad" (%11, %3, %26) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>, tensor<16xf32>
    (%29) = "pd_op.add_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %28) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    (%30, %31) = "pd_op.matmul_grad" (%10, %4, %27) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<2x16xf32>) -> tensor<2x8xf32>, tensor<8x16xf32>
    (%32) = "pd_op.add_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %31) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%33, %34) = "pd_op.add_grad" (%6, %9, %30) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> <<NULL TYPE>>, tensor<8xf32>
    (%35) = "pd_op.broadcast" (%34) {chunk_id:-1,op_role:1,ring_id:12,root:0,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    (%36) = "builtin.combine" (%19, %35) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> vec[tensor<8xf32>,tensor<8xf32>]
    (%37) = "pd_op.add_n" (%36) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<8xf32>,tensor<8xf32>]) -> tensor<8xf32>
    (%38) = "pd_op.scale" (%37, %7) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%39) = "pd_op.add_" (%kwarg_global_param_0.w_0.dist@GRAD@MERGE, %38) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%40) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%41) = "pd_op.scale_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %40) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%42, %43) = "pd_op.sgd_" (%1, %0, %41, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%44) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%45) = "pd_op.scale_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %44) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>) -> tensor<16x8xf32>
    (%46, %47) = "pd_op.sgd_" (%2, %0, %45, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16x8xf32>, tensor<f32>, tensor<16x8xf32>, <<NULL TYPE>>) -> tensor<16x8xf32>, <<NULL TYPE>>
    (%48) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%49) = "pd_op.scale_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %48) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>) -> tensor<16xf32>
    (%50, %51) = "pd_op.sgd_" (%3, %0, %49, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16xf32>, tensor<f32>, tensor<16xf32>, <<NULL TYPE>>) -> tensor<16xf32>, <<NULL TYPE>>
    (%52) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%53) = "pd_op.scale_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %52) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>) -> tensor<8x16xf32>
    (%54, %55) = "pd_op.sgd_" (%4, %0, %53, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, <<NULL TYPE>>) -> tensor<8x16xf32>, <<NULL TYPE>>
    (%56) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%57) = "pd_op.scale_" (%kwarg_global_param_0.w_0.dist@GRAD@MERGE, %56) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%58, %59) = "pd_op.sgd_" (%5, %0, %57, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%60) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%61) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%62) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%63) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%64) = "pd_op.set_value_with_tensor_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %60, %61, %62, %63) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%65) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%66) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%67) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%68) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%69) = "pd_op.set_value_with_tensor_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %65, %66, %67, %68) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16x8xf32>
    (%70) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%71) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%72) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%73) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%74) = "pd_op.set_value_with_tensor_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %70, %71, %72, %73) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16xf32>
    (%75) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%76) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%77) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%78) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%79) = "pd_op.set_value_with_tensor_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %75, %76, %77, %78) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
    (%80) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%81) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%82) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%83) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%84) = "pd_op.set_value_with_tensor_" (%kwarg_global_param_0.w_0.dist@GRAD@MERGE, %80, %81, %82, %83) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
}
