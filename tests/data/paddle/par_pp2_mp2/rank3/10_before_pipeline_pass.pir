{
    ^kw:
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x4xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%5) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%6) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%7) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"label0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,4,4],stop_gradient:[true]} : () -> tensor<2x4x4xf32>
    (%8) = "pd_op.recv_v2" () {chunk_id:-1,dtype:float32,dynamic_shape:false,op_role:0,out_shape:[2,4,8],peer:0,ring_id:15,stop_gradient:[true],use_calc_stream:true} : () -> tensor<2x4x8xf32>
    (%9) = "pd_op.matmul" (%8, %6) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    (%10) = "pd_op.add" (%9, %5) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear/"} : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
    (%11) = "pd_op.relu" (%10) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/"} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%12) = "pd_op.matmul" (%11, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    (%13) = "pd_op.all_reduce" (%12) {chunk_id:-1,op_role:0,reduce_type:0,ring_id:17,stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%14) = "pd_op.add" (%13, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_1/Linear_1/"} : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
    (%15) = "pd_op.matmul" (%14, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x4xf32>) -> tensor<2x4x4xf32>
    (%16) = "pd_op.add" (%15, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/Linear/"} : (tensor<2x4x4xf32>, tensor<4xf32>) -> tensor<2x4x4xf32>
    (%17) = "pd_op.subtract" (%16, %7) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    (%18) = "pd_op.square" (%17) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    (%19) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/MSELoss/",value:[]} : () -> tensor<0xi64>
    (%20) = "pd_op.mean" (%18, %19) {chunk_id:-1,keepdim:false,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4x4xf32>, tensor<0xi64>) -> tensor<f32>
    () = "builtin.shadow_output" (%20) {chunk_id:-1,op_role:0,output_name:"loss_0"} : (tensor<f32>) -> 
    (%21) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:1,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%22) = "pd_op.full_like" (%20, %21) {chunk_id:-1,dtype:float32,op_role:1,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f32>, tensor<1xf32>) -> tensor<f32>
    (%23) = "pd_op.mean_grad" (%18, %22, %19) {chunk_id:-1,keepdim:false,op_role:1,reduce_all:false,stop_gradient:[false]} : (tensor<2x4x4xf32>, tensor<f32>, tensor<0xi64>) -> tensor<2x4x4xf32>
    (%24) = "pd_op.square_grad" (%17, %23) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    (%25, %26) = "pd_op.subtract_grad" (%16, %7, %24) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>, <<NULL TYPE>>
    (%27, %28) = "pd_op.add_grad" (%15, %1, %25) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x4xf32>, tensor<4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>, tensor<4xf32>
    (%29) = "pd_op.add_" (%kwarg_linear_4.b_0.dist@GRAD@MERGE, %28) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    (%30, %31) = "pd_op.matmul_grad" (%14, %2, %27) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x8xf32>, tensor<8x4xf32>
    (%32) = "pd_op.add_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %31) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    (%33, %34) = "pd_op.add_grad" (%13, %3, %30) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%35) = "pd_op.add_" (%kwarg_linear_3.b_0.dist@GRAD@MERGE, %34) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%36, %37) = "pd_op.matmul_grad" (%11, %4, %33) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%38) = "pd_op.add_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %37) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%39) = "pd_op.relu_grad" (%11, %36) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%40, %41) = "pd_op.add_grad" (%9, %5, %39) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%42) = "pd_op.add_" (%kwarg_linear_2.b_0.dist@GRAD@MERGE, %41) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%43, %44) = "pd_op.matmul_grad" (%8, %6, %40) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%45) = "pd_op.add_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %44) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    () = "pd_op.send_v2" (%43) {chunk_id:-1,dynamic_shape:false,op_role:1,peer:1,ring_id:16,stop_gradient:[],use_calc_stream:true} : (tensor<2x4x8xf32>) -> 
    (%46) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%47) = "pd_op.scale_" (%kwarg_linear_4.b_0.dist@GRAD@MERGE, %46) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
    (%48, %49) = "pd_op.sgd_" (%1, %0, %47, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<4xf32>, tensor<f32>, tensor<4xf32>, <<NULL TYPE>>) -> tensor<4xf32>, <<NULL TYPE>>
    (%50) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%51) = "pd_op.scale_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %50) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x4xf32>, tensor<1xf32>) -> tensor<8x4xf32>
    (%52, %53) = "pd_op.sgd_" (%2, %0, %51, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x4xf32>, tensor<f32>, tensor<8x4xf32>, <<NULL TYPE>>) -> tensor<8x4xf32>, <<NULL TYPE>>
    (%54) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%55) = "pd_op.scale_" (%kwarg_linear_3.b_0.dist@GRAD@MERGE, %54) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%56, %57) = "pd_op.sgd_" (%3, %0, %55, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%58) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%59) = "pd_op.scale_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %58) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>) -> tensor<8x8xf32>
    (%60, %61) = "pd_op.sgd_" (%4, %0, %59, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x8xf32>, tensor<f32>, tensor<8x8xf32>, <<NULL TYPE>>) -> tensor<8x8xf32>, <<NULL TYPE>>
    (%62) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%63) = "pd_op.scale_" (%kwarg_linear_2.b_0.dist@GRAD@MERGE, %62) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%64, %65) = "pd_op.sgd_" (%5, %0, %63, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%66) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%67) = "pd_op.scale_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %66) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>) -> tensor<8x8xf32>
    (%68, %69) = "pd_op.sgd_" (%6, %0, %67, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x8xf32>, tensor<f32>, tensor<8x8xf32>, <<NULL TYPE>>) -> tensor<8x8xf32>, <<NULL TYPE>>
    (%70) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%71) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%72) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%73) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%74) = "pd_op.set_value_with_tensor_" (%kwarg_linear_4.b_0.dist@GRAD@MERGE, %70, %71, %72, %73) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<4xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<4xf32>
    (%75) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%76) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%77) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%78) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%79) = "pd_op.set_value_with_tensor_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %75, %76, %77, %78) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x4xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x4xf32>
    (%80) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%81) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%82) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%83) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%84) = "pd_op.set_value_with_tensor_" (%kwarg_linear_3.b_0.dist@GRAD@MERGE, %80, %81, %82, %83) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%85) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%86) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%87) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%88) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%89) = "pd_op.set_value_with_tensor_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %85, %86, %87, %88) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16x8xf32>
    (%90) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%91) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%92) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%93) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%94) = "pd_op.set_value_with_tensor_" (%kwarg_linear_2.b_0.dist@GRAD@MERGE, %90, %91, %92, %93) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16xf32>
    (%95) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%96) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%97) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%98) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%99) = "pd_op.set_value_with_tensor_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %95, %96, %97, %98) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
}
