{
    ^kw:
        %kwarg_learning_rate_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_6.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_5.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_llama_rms_norm_1.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_embedding_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_embedding_0.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_llama_rms_norm_0.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.share_data_" (%kwarg_llama_rms_norm_1.w_0.dist@GRAD@MERGE) {chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    (%1) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%2) = "pd_op.scale_" (%0, %1) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%3) = "pd_op.share_data_" (%kwarg_llama_rms_norm_0.w_0.dist@GRAD@MERGE) {chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    (%4) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%5) = "pd_op.scale_" (%3, %4) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%6) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%7) = "pd_op.scale_" (%kwarg_linear_6.w_0.dist@GRAD@MERGE, %6) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>) -> tensor<16x8xf32>
    (%8, %9) = "pd_op.sgd_" (%kwarg_linear_6.w_0.dist, %kwarg_learning_rate_0, %7, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16x8xf32>, tensor<f32>, tensor<16x8xf32>, <<NULL TYPE>>) -> tensor<16x8xf32>, <<NULL TYPE>>
    (%10) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%11) = "pd_op.scale_" (%kwarg_linear_5.w_0.dist@GRAD@MERGE, %10) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>) -> tensor<8x16xf32>
    (%12, %13) = "pd_op.sgd_" (%kwarg_linear_5.w_0.dist, %kwarg_learning_rate_0, %11, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, <<NULL TYPE>>) -> tensor<8x16xf32>, <<NULL TYPE>>
    (%14) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%15) = "pd_op.scale_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %14) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>) -> tensor<8x16xf32>
    (%16, %17) = "pd_op.sgd_" (%kwarg_linear_4.w_0.dist, %kwarg_learning_rate_0, %15, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, <<NULL TYPE>>) -> tensor<8x16xf32>, <<NULL TYPE>>
    (%18, %19) = "pd_op.sgd_" (%kwarg_llama_rms_norm_1.w_0.dist, %kwarg_learning_rate_0, %2, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%20) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%21) = "pd_op.scale_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %20) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>) -> tensor<8x8xf32>
    (%22, %23) = "pd_op.sgd_" (%kwarg_linear_3.w_0.dist, %kwarg_learning_rate_0, %21, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x8xf32>, tensor<f32>, tensor<8x8xf32>, <<NULL TYPE>>) -> tensor<8x8xf32>, <<NULL TYPE>>
    (%24) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%25) = "pd_op.scale_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %24) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>) -> tensor<8x8xf32>
    (%26, %27) = "pd_op.sgd_" (%kwarg_linear_2.w_0.dist, %kwarg_learning_rate_0, %25, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x8xf32>, tensor<f32>, tensor<8x8xf32>, <<NULL TYPE>>) -> tensor<8x8xf32>, <<NULL TYPE>>
    (%28) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%29) = "pd_op.scale_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %28) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>) -> tensor<8x8xf32>
    (%30, %31) = "pd_op.sgd_" (%kwarg_linear_1.w_0.dist, %kwarg_learning_rate_0, %29, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x8xf32>, tensor<f32>, tensor<8x8xf32>, <<NULL TYPE>>) -> tensor<8x8xf32>, <<NULL TYPE>>
    (%32) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%33) = "pd_op.scale_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %32) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>) -> tensor<8x8xf32>
    (%34, %35) = "pd_op.sgd_" (%kwarg_linear_0.w_0.dist, %kwarg_learning_rate_0, %33, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x8xf32>, tensor<f32>, tensor<8x8xf32>, <<NULL TYPE>>) -> tensor<8x8xf32>, <<NULL TYPE>>
    (%36, %37) = "pd_op.sgd_" (%kwarg_llama_rms_norm_0.w_0.dist, %kwarg_learning_rate_0, %5, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%38) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%39) = "pd_op.scale_" (%kwarg_embedding_0.w_0.dist@GRAD@MERGE, %38) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>) -> tensor<16x8xf32>
    (%40, %41) = "pd_op.sgd_" (%kwarg_embedding_0.w_0.dist, %kwarg_learning_rate_0, %39, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16x8xf32>, tensor<f32>, tensor<16x8xf32>, <<NULL TYPE>>) -> tensor<16x8xf32>, <<NULL TYPE>>
    (%42) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%43) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%44) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%45) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%46) = "pd_op.set_value_with_tensor_" (%kwarg_linear_6.w_0.dist@GRAD@MERGE, %42, %43, %44, %45) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16x8xf32>
    (%47) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%48) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%49) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%50) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%51) = "pd_op.set_value_with_tensor_" (%kwarg_linear_5.w_0.dist@GRAD@MERGE, %47, %48, %49, %50) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
    (%52) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%53) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%54) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%55) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%56) = "pd_op.set_value_with_tensor_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %52, %53, %54, %55) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
    (%57) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%58) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%59) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%60) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%61) = "pd_op.set_value_with_tensor_" (%kwarg_llama_rms_norm_1.w_0.dist@GRAD@MERGE, %57, %58, %59, %60) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%62) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%63) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%64) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%65) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%66) = "pd_op.set_value_with_tensor_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %62, %63, %64, %65) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x8xf32>
    (%67) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%68) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%69) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%70) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%71) = "pd_op.set_value_with_tensor_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %67, %68, %69, %70) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x8xf32>
    (%72) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%73) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%74) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%75) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%76) = "pd_op.set_value_with_tensor_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %72, %73, %74, %75) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x8xf32>
    (%77) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%78) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%79) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%80) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%81) = "pd_op.set_value_with_tensor_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %77, %78, %79, %80) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x8xf32>
    (%82) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%83) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%84) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%85) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%86) = "pd_op.set_value_with_tensor_" (%kwarg_llama_rms_norm_0.w_0.dist@GRAD@MERGE, %82, %83, %84, %85) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%87) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%88) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%89) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%90) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%91) = "pd_op.set_value_with_tensor_" (%kwarg_embedding_0.w_0.dist@GRAD@MERGE, %87, %88, %89, %90) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16x8xf32>
}
