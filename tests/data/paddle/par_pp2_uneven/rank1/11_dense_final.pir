{
    ^kw:
        %kwarg_linear_6.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_5.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_6.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_6.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x4xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_5.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_5.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%5) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%6) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_4.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%7) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"label0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf32>
    (%8) = "pd_op.recv_v2" () {chunk_id:-1,dtype:float32,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:0,out_shape:[2,8],peer:0,ring_id:12,scheduling_priority:0,stop_gradient:[true],use_calc_stream:true} : () -> tensor<2x8xf32>
    (%9) = "pd_op.matmul" (%8, %6) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_2/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    (%10) = "pd_op.add" (%9, %5) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_2/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%11) = "pd_op.relu" (%10) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_2/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    (%12) = "pd_op.matmul" (%11, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_2/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    (%13) = "pd_op.add" (%12, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/MyLinear_2/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    (%14) = "pd_op.matmul" (%13, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    (%15) = "pd_op.add" (%14, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/ParallelMLP/Linear/"} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    (%16) = "pd_op.subtract" (%15, %7) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    (%17) = "pd_op.square" (%16) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    (%18) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/MSELoss/",value:[]} : () -> tensor<0xi64>
    (%19) = "pd_op.mean" (%17, %18) {chunk_id:-1,keepdim:false,op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"} : (tensor<2x4xf32>, tensor<0xi64>) -> tensor<f32>
    () = "builtin.shadow_output" (%19) {chunk_id:-1,op_role:0,output_name:"loss_0"} : (tensor<f32>) -> 
    (%20) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:1,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%21) = "pd_op.full_like" (%19, %20) {chunk_id:-1,dtype:float32,op_role:1,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f32>, tensor<1xf32>) -> tensor<f32>
    (%22) = "pd_op.mean_grad" (%17, %21, %18) {chunk_id:-1,keepdim:false,op_role:1,reduce_all:false,stop_gradient:[false]} : (tensor<2x4xf32>, tensor<f32>, tensor<0xi64>) -> tensor<2x4xf32>
    (%23) = "pd_op.square_grad" (%16, %22) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    (%24, %25) = "pd_op.subtract_grad" (%15, %7, %23) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>, <<NULL TYPE>>
    (%26, %27) = "pd_op.add_grad" (%14, %1, %24) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>, tensor<4xf32>
    (%28) = "pd_op.add_" (%kwarg_linear_6.b_0.dist@GRAD@MERGE, %27) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    (%29, %30) = "pd_op.matmul_grad" (%13, %2, %26) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>, tensor<8x4xf32>
    (%31) = "pd_op.add_" (%kwarg_linear_6.w_0.dist@GRAD@MERGE, %30) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    (%32, %33) = "pd_op.add_grad" (%12, %3, %29) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>, tensor<8xf32>
    (%34) = "pd_op.add_" (%kwarg_linear_5.b_0.dist@GRAD@MERGE, %33) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%35, %36) = "pd_op.matmul_grad" (%11, %4, %32) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>, tensor<16x8xf32>
    (%37) = "pd_op.add_" (%kwarg_linear_5.w_0.dist@GRAD@MERGE, %36) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%38) = "pd_op.relu_grad" (%11, %35) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    (%39, %40) = "pd_op.add_grad" (%9, %5, %38) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>, tensor<16xf32>
    (%41) = "pd_op.add_" (%kwarg_linear_4.b_0.dist@GRAD@MERGE, %40) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    (%42, %43) = "pd_op.matmul_grad" (%8, %6, %39) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<2x16xf32>) -> tensor<2x8xf32>, tensor<8x16xf32>
    (%44) = "pd_op.add_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %43) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    () = "pd_op.send_v2" (%42) {chunk_id:-1,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:1,peer:1,ring_id:13,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
    (%45) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%46) = "pd_op.scale_" (%kwarg_linear_6.b_0.dist@GRAD@MERGE, %45) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
    (%47, %48) = "pd_op.sgd_" (%1, %0, %46, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<4xf32>, tensor<f32>, tensor<4xf32>, <<NULL TYPE>>) -> tensor<4xf32>, <<NULL TYPE>>
    (%49) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%50) = "pd_op.scale_" (%kwarg_linear_6.w_0.dist@GRAD@MERGE, %49) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x4xf32>, tensor<1xf32>) -> tensor<8x4xf32>
    (%51, %52) = "pd_op.sgd_" (%2, %0, %50, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x4xf32>, tensor<f32>, tensor<8x4xf32>, <<NULL TYPE>>) -> tensor<8x4xf32>, <<NULL TYPE>>
    (%53) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%54) = "pd_op.scale_" (%kwarg_linear_5.b_0.dist@GRAD@MERGE, %53) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%55, %56) = "pd_op.sgd_" (%3, %0, %54, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%57) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%58) = "pd_op.scale_" (%kwarg_linear_5.w_0.dist@GRAD@MERGE, %57) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>) -> tensor<16x8xf32>
    (%59, %60) = "pd_op.sgd_" (%4, %0, %58, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16x8xf32>, tensor<f32>, tensor<16x8xf32>, <<NULL TYPE>>) -> tensor<16x8xf32>, <<NULL TYPE>>
    (%61) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%62) = "pd_op.scale_" (%kwarg_linear_4.b_0.dist@GRAD@MERGE, %61) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>) -> tensor<16xf32>
    (%63, %64) = "pd_op.sgd_" (%5, %0, %62, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16xf32>, tensor<f32>, tensor<16xf32>, <<NULL TYPE>>) -> tensor<16xf32>, <<NULL TYPE>>
    (%65) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%66) = "pd_op.scale_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %65) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>) -> tensor<8x16xf32>
    (%67, %68) = "pd_op.sgd_" (%6, %0, %66, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, <<NULL TYPE>>) -> tensor<8x16xf32>, <<NULL TYPE>>
    (%69) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%70) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%71) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%72) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%73) = "pd_op.set_value_with_tensor_" (%kwarg_linear_6.b_0.dist@GRAD@MERGE, %69, %70, %71, %72) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<4xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<4xf32>
    (%74) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%75) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%76) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%77) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%78) = "pd_op.set_value_with_tensor_" (%kwarg_linear_6.w_0.dist@GRAD@MERGE, %74, %75, %76, %77) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x4xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x4xf32>
    (%79) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%80) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%81) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%82) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%83) = "pd_op.set_value_with_tensor_" (%kwarg_linear_5.b_0.dist@GRAD@MERGE, %79, %80, %81, %82) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%84) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%85) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%86) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%87) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%88) = "pd_op.set_value_with_tensor_" (%kwarg_linear_5.w_0.dist@GRAD@MERGE, %84, %85, %86, %87) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16x8xf32>
    (%89) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%90) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%91) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%92) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%93) = "pd_op.set_value_with_tensor_" (%kwarg_linear_4.b_0.dist@GRAD@MERGE, %89, %90, %91, %92) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16xf32>
    (%94) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%95) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%96) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%97) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%98) = "pd_op.set_value_with_tensor_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %94, %95, %96, %97) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
}
