{
    ^kw:
        %kwarg_linear_3.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"learning_rate_0",op_role:0,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%2) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_3.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%3) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%4) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_2.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%5) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%6) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_1.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16x8xf32>
    (%7) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.b_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<16xf32>
    (%8) = "builtin.parameter" () {chunk_id:-1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:0,parameter_name:"linear_0.w_0.dist",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x16xf32>
    (%9) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"input0",op_role:0,persistable:[false],place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>
    (%10) = "pd_op.matmul" (%9, %8) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/EncoderBlock/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    (%11) = "pd_op.add" (%10, %7) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/EncoderBlock/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%12) = "pd_op.relu" (%11) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/EncoderBlock/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    (%13) = "pd_op.matmul" (%12, %6) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/EncoderBlock/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    (%14) = "pd_op.add" (%13, %5) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/EncoderBlock/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    (%15) = "pd_op.matmul" (%14, %4) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/EncoderBlock_1/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    (%16) = "pd_op.add" (%15, %3) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/EncoderBlock_1/Linear/"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    (%17) = "pd_op.relu" (%16) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/EncoderBlock_1/"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    (%18) = "pd_op.matmul" (%17, %2) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/EncoderBlock_1/Linear_1/",transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    (%19) = "pd_op.add" (%18, %1) {chunk_id:-1,op_role:0,stop_gradient:[false],struct_name:"/EncDecMLP/EncoderBlock_1/Linear_1/"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    () = "pd_op.send_v2" (%19) {chunk_id:-1,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:0,peer:1,ring_id:12,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
    (%20) = "pd_op.recv_v2" () {chunk_id:-1,dtype:float32,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:1,out_shape:[2,8],peer:0,ring_id:13,scheduling_priority:0,stop_gradient:[true],use_calc_stream:true} : () -> tensor<2x8xf32>
    (%21, %22) = "pd_op.add_grad" (%18, %1, %20) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>, tensor<8xf32>
    (%23) = "pd_op.add_" (%kwarg_linear_3.b_0.dist@GRAD@MERGE, %22) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%24, %25) = "pd_op.matmul_grad" (%17, %2, %21) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>, tensor<16x8xf32>
    (%26) = "pd_op.add_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %25) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%27) = "pd_op.relu_grad" (%17, %24) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    (%28, %29) = "pd_op.add_grad" (%15, %3, %27) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>, tensor<16xf32>
    (%30) = "pd_op.add_" (%kwarg_linear_2.b_0.dist@GRAD@MERGE, %29) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    (%31, %32) = "pd_op.matmul_grad" (%14, %4, %28) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<2x16xf32>) -> tensor<2x8xf32>, tensor<8x16xf32>
    (%33) = "pd_op.add_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %32) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%34, %35) = "pd_op.add_grad" (%13, %5, %31) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>, tensor<8xf32>
    (%36) = "pd_op.add_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %35) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%37, %38) = "pd_op.matmul_grad" (%12, %6, %34) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x16xf32>, tensor<16x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>, tensor<16x8xf32>
    (%39) = "pd_op.add_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %38) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%40) = "pd_op.relu_grad" (%12, %37) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    (%41, %42) = "pd_op.add_grad" (%10, %7, %40) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>, tensor<16xf32>
    (%43) = "pd_op.add_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %42) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    (%44, %45) = "pd_op.matmul_grad" (%9, %8, %41) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<2x16xf32>) -> <<NULL TYPE>>, tensor<8x16xf32>
    (%46) = "pd_op.add_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %45) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%47) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%48) = "pd_op.scale_" (%kwarg_linear_3.b_0.dist@GRAD@MERGE, %47) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%49, %50) = "pd_op.sgd_" (%1, %0, %48, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%51) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%52) = "pd_op.scale_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %51) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>) -> tensor<16x8xf32>
    (%53, %54) = "pd_op.sgd_" (%2, %0, %52, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16x8xf32>, tensor<f32>, tensor<16x8xf32>, <<NULL TYPE>>) -> tensor<16x8xf32>, <<NULL TYPE>>
    (%55) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%56) = "pd_op.scale_" (%kwarg_linear_2.b_0.dist@GRAD@MERGE, %55) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>) -> tensor<16xf32>
    (%57, %58) = "pd_op.sgd_" (%3, %0, %56, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16xf32>, tensor<f32>, tensor<16xf32>, <<NULL TYPE>>) -> tensor<16xf32>, <<NULL TYPE>>
    (%59) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%60) = "pd_op.scale_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %59) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>) -> tensor<8x16xf32>
    (%61, %62) = "pd_op.sgd_" (%4, %0, %60, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, <<NULL TYPE>>) -> tensor<8x16xf32>, <<NULL TYPE>>
    (%63) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%64) = "pd_op.scale_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %63) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%65, %66) = "pd_op.sgd_" (%5, %0, %64, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%67) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%68) = "pd_op.scale_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %67) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>) -> tensor<16x8xf32>
    (%69, %70) = "pd_op.sgd_" (%6, %0, %68, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16x8xf32>, tensor<f32>, tensor<16x8xf32>, <<NULL TYPE>>) -> tensor<16x8xf32>, <<NULL TYPE>>
    (%71) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%72) = "pd_op.scale_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %71) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>) -> tensor<16xf32>
    (%73, %74) = "pd_op.sgd_" (%7, %0, %72, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16xf32>, tensor<f32>, tensor<16xf32>, <<NULL TYPE>>) -> tensor<16xf32>, <<NULL TYPE>>
    (%75) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%76) = "pd_op.scale_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %75) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>) -> tensor<8x16xf32>
    (%77, %78) = "pd_op.sgd_" (%8, %0, %76, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, <<NULL TYPE>>) -> tensor<8x16xf32>, <<NULL TYPE>>
    (%79) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%80) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%81) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%82) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%83) = "pd_op.set_value_with_tensor_" (%kwarg_linear_3.b_0.dist@GRAD@MERGE, %79, %80, %81, %82) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%84) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%85) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%86) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%87) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%88) = "pd_op.set_value_with_tensor_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %84, %85, %86, %87) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16x8xf32>
    (%89) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%90) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%91) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%92) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%93) = "pd_op.set_value_with_tensor_" (%kwarg_linear_2.b_0.dist@GRAD@MERGE, %89, %90, %91, %92) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16xf32>
    (%94) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%95) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%96) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%97) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%98) = "pd_op.set_value_with_tensor_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %94, %95, %96, %97) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
    (%99) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%100) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%101) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%102) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%103) = "pd_op.set_value_with_tensor_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %99, %100, %101, %102) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%104) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%105) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%106) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%107) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%108) = "pd_op.set_value_with_tensor_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %104, %105, %106, %107) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16x8xf32>
    (%109) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%110) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%111) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%112) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%113) = "pd_op.set_value_with_tensor_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %109, %110, %111, %112) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16xf32>
    (%114) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%115) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%116) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%117) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%118) = "pd_op.set_value_with_tensor_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %114, %115, %116, %117) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
}
