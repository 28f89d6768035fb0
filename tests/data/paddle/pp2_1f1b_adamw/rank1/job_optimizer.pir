{
    ^kw:
        %kwarg_linear_2.w_0.dist_beta2_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist_beta1_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist_moment1_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.b_0.dist_beta2_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.b_0.dist_beta1_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.b_0.dist_moment2_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.b_0.dist_moment1_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist_moment1_0 {persistable:true,place:Place(cpu)}
        %kwarg_learning_rate_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist_moment1_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist_moment2_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.b_0.dist_moment1_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist_beta2_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.b_0.dist_beta1_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist_beta2_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist_moment2_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist_moment2_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist_beta1_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist_moment2_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.b_0.dist_moment2_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.b_0.dist_beta1_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.b_0.dist_beta2_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist_moment1_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist_beta1_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist_beta2_pow_acc_0 {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>
    (%1) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>
    (%2) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>
    (%3) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%4) = "pd_op.scale_" (%kwarg_linear_4.b_0.dist@GRAD@MERGE, %3) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
    (%5, %6, %7, %8, %9, %10, %11) = "pd_op.adamw_" (%kwarg_linear_4.b_0.dist, %4, %kwarg_learning_rate_0, %kwarg_linear_4.b_0.dist_moment1_0, %kwarg_linear_4.b_0.dist_moment2_0, <<NULL VALUE>>, %kwarg_linear_4.b_0.dist_beta1_pow_acc_0, %kwarg_linear_4.b_0.dist_beta2_pow_acc_0, <<NULL VALUE>>, <<NULL VALUE>>, %0, %1, %2) {amsgrad:false,chunk_id:-1,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:1000,multi_precision:false,op_role:2,stop_gradient:[false,false,false,false,false,false,false],use_global_beta_pow:false,with_decay:true} : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>
    (%12) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>
    (%13) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>
    (%14) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>
    (%15) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%16) = "pd_op.scale_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %15) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x4xf32>, tensor<1xf32>) -> tensor<8x4xf32>
    (%17, %18, %19, %20, %21, %22, %23) = "pd_op.adamw_" (%kwarg_linear_4.w_0.dist, %16, %kwarg_learning_rate_0, %kwarg_linear_4.w_0.dist_moment1_0, %kwarg_linear_4.w_0.dist_moment2_0, <<NULL VALUE>>, %kwarg_linear_4.w_0.dist_beta1_pow_acc_0, %kwarg_linear_4.w_0.dist_beta2_pow_acc_0, <<NULL VALUE>>, <<NULL VALUE>>, %12, %13, %14) {amsgrad:false,chunk_id:-1,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:1000,multi_precision:false,op_role:2,stop_gradient:[false,false,false,false,false,false,false],use_global_beta_pow:false,with_decay:true} : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<f32>, tensor<8x4xf32>, tensor<8x4xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>
    (%24) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>
    (%25) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>
    (%26) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>
    (%27) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%28) = "pd_op.scale_" (%kwarg_linear_3.b_0.dist@GRAD@MERGE, %27) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%29, %30, %31, %32, %33, %34, %35) = "pd_op.adamw_" (%kwarg_linear_3.b_0.dist, %28, %kwarg_learning_rate_0, %kwarg_linear_3.b_0.dist_moment1_0, %kwarg_linear_3.b_0.dist_moment2_0, <<NULL VALUE>>, %kwarg_linear_3.b_0.dist_beta1_pow_acc_0, %kwarg_linear_3.b_0.dist_beta2_pow_acc_0, <<NULL VALUE>>, <<NULL VALUE>>, %24, %25, %26) {amsgrad:false,chunk_id:-1,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:1000,multi_precision:false,op_role:2,stop_gradient:[false,false,false,false,false,false,false],use_global_beta_pow:false,with_decay:true} : (tensor<8xf32>, tensor<8xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>
    (%36) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>
    (%37) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>
    (%38) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>
    (%39) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%40) = "pd_op.scale_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %39) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>) -> tensor<16x8xf32>
    (%41, %42, %43, %44, %45, %46, %47) = "pd_op.adamw_" (%kwarg_linear_3.w_0.dist, %40, %kwarg_learning_rate_0, %kwarg_linear_3.w_0.dist_moment1_0, %kwarg_linear_3.w_0.dist_moment2_0, <<NULL VALUE>>, %kwarg_linear_3.w_0.dist_beta1_pow_acc_0, %kwarg_linear_3.w_0.dist_beta2_pow_acc_0, <<NULL VALUE>>, <<NULL VALUE>>, %36, %37, %38) {amsgrad:false,chunk_id:-1,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:1000,multi_precision:false,op_role:2,stop_gradient:[false,false,false,false,false,false,false],use_global_beta_pow:false,with_decay:true} : (tensor<16x8xf32>, tensor<16x8xf32>, tensor<f32>, tensor<16x8xf32>, tensor<16x8xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>
    (%48) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>
    (%49) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>
    (%50) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>
    (%51) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%52) = "pd_op.scale_" (%kwarg_linear_2.b_0.dist@GRAD@MERGE, %51) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>) -> tensor<16xf32>
    (%53, %54, %55, %56, %57, %58, %59) = "pd_op.adamw_" (%kwarg_linear_2.b_0.dist, %52, %kwarg_learning_rate_0, %kwarg_linear_2.b_0.dist_moment1_0, %kwarg_linear_2.b_0.dist_moment2_0, <<NULL VALUE>>, %kwarg_linear_2.b_0.dist_beta1_pow_acc_0, %kwarg_linear_2.b_0.dist_beta2_pow_acc_0, <<NULL VALUE>>, <<NULL VALUE>>, %48, %49, %50) {amsgrad:false,chunk_id:-1,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:1000,multi_precision:false,op_role:2,stop_gradient:[false,false,false,false,false,false,false],use_global_beta_pow:false,with_decay:true} : (tensor<16xf32>, tensor<16xf32>, tensor<f32>, tensor<16xf32>, tensor<16xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>
    (%60) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>
    (%61) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>
    (%62) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>
    (%63) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%64) = "pd_op.scale_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %63) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>) -> tensor<8x16xf32>
    (%65, %66, %67, %68, %69, %70, %71) = "pd_op.adamw_" (%kwarg_linear_2.w_0.dist, %64, %kwarg_learning_rate_0, %kwarg_linear_2.w_0.dist_moment1_0, %kwarg_linear_2.w_0.dist_moment2_0, <<NULL VALUE>>, %kwarg_linear_2.w_0.dist_beta1_pow_acc_0, %kwarg_linear_2.w_0.dist_beta2_pow_acc_0, <<NULL VALUE>>, <<NULL VALUE>>, %60, %61, %62) {amsgrad:false,chunk_id:-1,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:1000,multi_precision:false,op_role:2,stop_gradient:[false,false,false,false,false,false,false],use_global_beta_pow:false,with_decay:true} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, tensor<8x16xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>
    (%72) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%73) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%74) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%75) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%76) = "pd_op.set_value_with_tensor_" (%kwarg_linear_4.b_0.dist@GRAD@MERGE, %72, %73, %74, %75) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<4xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<4xf32>
    (%77) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%78) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%79) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%80) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%81) = "pd_op.set_value_with_tensor_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %77, %78, %79, %80) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x4xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x4xf32>
    (%82) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%83) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%84) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%85) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%86) = "pd_op.set_value_with_tensor_" (%kwarg_linear_3.b_0.dist@GRAD@MERGE, %82, %83, %84, %85) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%87) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%88) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%89) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%90) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%91) = "pd_op.set_value_with_tensor_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %87, %88, %89, %90) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16x8xf32>
    (%92) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%93) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%94) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%95) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%96) = "pd_op.set_value_with_tensor_" (%kwarg_linear_2.b_0.dist@GRAD@MERGE, %92, %93, %94, %95) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16xf32>
    (%97) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%98) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%99) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%100) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%101) = "pd_op.set_value_with_tensor_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %97, %98, %99, %100) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
}
