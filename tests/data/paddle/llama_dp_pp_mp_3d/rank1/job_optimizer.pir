{
    ^kw:
        %kwarg_learning_rate_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_13.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_11.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_14.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_12.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_llama_rms_norm_3.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_10.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_llama_rms_norm_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_8.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_14.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_13.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_11.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_9.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_12.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_9.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_10.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_2.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_7.w_0.dist {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.share_data_" (%kwarg_llama_rms_norm_4.w_0.dist@GRAD@MERGE) {chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    (%1) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%2) = "pd_op.scale_" (%0, %1) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%3) = "pd_op.share_data_" (%kwarg_llama_rms_norm_3.w_0.dist@GRAD@MERGE) {chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    (%4) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%5) = "pd_op.scale_" (%3, %4) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%6) = "pd_op.share_data_" (%kwarg_llama_rms_norm_2.w_0.dist@GRAD@MERGE) {chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    (%7) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%8) = "pd_op.scale_" (%6, %7) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%9) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%10) = "pd_op.scale_" (%kwarg_linear_14.w_0.dist@GRAD@MERGE, %9) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>) -> tensor<8x16xf32>
    (%11, %12) = "pd_op.sgd_" (%kwarg_linear_14.w_0.dist, %kwarg_learning_rate_0, %10, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, <<NULL TYPE>>) -> tensor<8x16xf32>, <<NULL TYPE>>
    (%13, %14) = "pd_op.sgd_" (%kwarg_llama_rms_norm_4.w_0.dist, %kwarg_learning_rate_0, %2, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%15) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%16) = "pd_op.scale_" (%kwarg_linear_13.w_0.dist@GRAD@MERGE, %15) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>) -> tensor<16x8xf32>
    (%17, %18) = "pd_op.sgd_" (%kwarg_linear_13.w_0.dist, %kwarg_learning_rate_0, %16, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16x8xf32>, tensor<f32>, tensor<16x8xf32>, <<NULL TYPE>>) -> tensor<16x8xf32>, <<NULL TYPE>>
    (%19) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%20) = "pd_op.scale_" (%kwarg_linear_12.w_0.dist@GRAD@MERGE, %19) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>) -> tensor<8x16xf32>
    (%21, %22) = "pd_op.sgd_" (%kwarg_linear_12.w_0.dist, %kwarg_learning_rate_0, %20, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, <<NULL TYPE>>) -> tensor<8x16xf32>, <<NULL TYPE>>
    (%23) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%24) = "pd_op.scale_" (%kwarg_linear_11.w_0.dist@GRAD@MERGE, %23) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>) -> tensor<8x16xf32>
    (%25, %26) = "pd_op.sgd_" (%kwarg_linear_11.w_0.dist, %kwarg_learning_rate_0, %24, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, <<NULL TYPE>>) -> tensor<8x16xf32>, <<NULL TYPE>>
    (%27, %28) = "pd_op.sgd_" (%kwarg_llama_rms_norm_3.w_0.dist, %kwarg_learning_rate_0, %5, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%29) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%30) = "pd_op.scale_" (%kwarg_linear_10.w_0.dist@GRAD@MERGE, %29) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>) -> tensor<8x8xf32>
    (%31, %32) = "pd_op.sgd_" (%kwarg_linear_10.w_0.dist, %kwarg_learning_rate_0, %30, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x8xf32>, tensor<f32>, tensor<8x8xf32>, <<NULL TYPE>>) -> tensor<8x8xf32>, <<NULL TYPE>>
    (%33) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%34) = "pd_op.scale_" (%kwarg_linear_9.w_0.dist@GRAD@MERGE, %33) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>) -> tensor<8x8xf32>
    (%35, %36) = "pd_op.sgd_" (%kwarg_linear_9.w_0.dist, %kwarg_learning_rate_0, %34, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x8xf32>, tensor<f32>, tensor<8x8xf32>, <<NULL TYPE>>) -> tensor<8x8xf32>, <<NULL TYPE>>
    (%37) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%38) = "pd_op.scale_" (%kwarg_linear_8.w_0.dist@GRAD@MERGE, %37) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>) -> tensor<8x8xf32>
    (%39, %40) = "pd_op.sgd_" (%kwarg_linear_8.w_0.dist, %kwarg_learning_rate_0, %38, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x8xf32>, tensor<f32>, tensor<8x8xf32>, <<NULL TYPE>>) -> tensor<8x8xf32>, <<NULL TYPE>>
    (%41) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%42) = "pd_op.scale_" (%kwarg_linear_7.w_0.dist@GRAD@MERGE, %41) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>) -> tensor<8x8xf32>
    (%43, %44) = "pd_op.sgd_" (%kwarg_linear_7.w_0.dist, %kwarg_learning_rate_0, %42, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x8xf32>, tensor<f32>, tensor<8x8xf32>, <<NULL TYPE>>) -> tensor<8x8xf32>, <<NULL TYPE>>
    (%45, %46) = "pd_op.sgd_" (%kwarg_llama_rms_norm_2.w_0.dist, %kwarg_learning_rate_0, %8, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%47) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%48) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%49) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%50) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%51) = "pd_op.set_value_with_tensor_" (%kwarg_linear_14.w_0.dist@GRAD@MERGE, %47, %48, %49, %50) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
    (%52) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%53) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%54) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%55) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%56) = "pd_op.set_value_with_tensor_" (%kwarg_llama_rms_norm_4.w_0.dist@GRAD@MERGE, %52, %53, %54, %55) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%57) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%58) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%59) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%60) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%61) = "pd_op.set_value_with_tensor_" (%kwarg_linear_13.w_0.dist@GRAD@MERGE, %57, %58, %59, %60) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16x8xf32>
    (%62) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%63) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%64) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%65) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%66) = "pd_op.set_value_with_tensor_" (%kwarg_linear_12.w_0.dist@GRAD@MERGE, %62, %63, %64, %65) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
    (%67) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%68) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%69) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%70) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%71) = "pd_op.set_value_with_tensor_" (%kwarg_linear_11.w_0.dist@GRAD@MERGE, %67, %68, %69, %70) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
    (%72) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%73) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%74) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%75) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%76) = "pd_op.set_value_with_tensor_" (%kwarg_llama_rms_norm_3.w_0.dist@GRAD@MERGE, %72, %73, %74, %75) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%77) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%78) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%79) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%80) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%81) = "pd_op.set_value_with_tensor_" (%kwarg_linear_10.w_0.dist@GRAD@MERGE, %77, %78, %79, %80) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x8xf32>
    (%82) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%83) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%84) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%85) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%86) = "pd_op.set_value_with_tensor_" (%kwarg_linear_9.w_0.dist@GRAD@MERGE, %82, %83, %84, %85) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x8xf32>
    (%87) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%88) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%89) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%90) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%91) = "pd_op.set_value_with_tensor_" (%kwarg_linear_8.w_0.dist@GRAD@MERGE, %87, %88, %89, %90) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x8xf32>
    (%92) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%93) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%94) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%95) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%96) = "pd_op.set_value_with_tensor_" (%kwarg_linear_7.w_0.dist@GRAD@MERGE, %92, %93, %94, %95) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x8xf32>
    (%97) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%98) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%99) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%100) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%101) = "pd_op.set_value_with_tensor_" (%kwarg_llama_rms_norm_2.w_0.dist@GRAD@MERGE, %97, %98, %99, %100) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
}
