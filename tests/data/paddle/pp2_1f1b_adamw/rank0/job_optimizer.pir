{
    ^kw:
        %kwarg_linear_0.w_0.dist_moment1_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist_beta2_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist_moment2_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist_beta1_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist_moment1_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist_beta2_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.b_0.dist_moment1_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.b_0.dist_beta2_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist_beta1_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.b_0.dist_moment2_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.b_0.dist_beta1_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_learning_rate_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.b_0.dist_moment1_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.b_0.dist_moment2_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist_moment2_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.b_0.dist_beta1_pow_acc_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_1.b_0.dist_beta2_pow_acc_0 {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>
    (%1) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>
    (%2) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>
    (%3) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%4) = "pd_op.scale_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %3) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%5, %6, %7, %8, %9, %10, %11) = "pd_op.adamw_" (%kwarg_linear_1.b_0.dist, %4, %kwarg_learning_rate_0, %kwarg_linear_1.b_0.dist_moment1_0, %kwarg_linear_1.b_0.dist_moment2_0, <<NULL VALUE>>, %kwarg_linear_1.b_0.dist_beta1_pow_acc_0, %kwarg_linear_1.b_0.dist_beta2_pow_acc_0, <<NULL VALUE>>, <<NULL VALUE>>, %0, %1, %2) {amsgrad:false,chunk_id:-1,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:1000,multi_precision:false,op_role:2,stop_gradient:[false,false,false,false,false,false,false],use_global_beta_pow:false,with_decay:true} : (tensor<8xf32>, tensor<8xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>
    (%12) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>
    (%13) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>
    (%14) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>
    (%15) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%16) = "pd_op.scale_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %15) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>) -> tensor<16x8xf32>
    (%17, %18, %19, %20, %21, %22, %23) = "pd_op.adamw_" (%kwarg_linear_1.w_0.dist, %16, %kwarg_learning_rate_0, %kwarg_linear_1.w_0.dist_moment1_0, %kwarg_linear_1.w_0.dist_moment2_0, <<NULL VALUE>>, %kwarg_linear_1.w_0.dist_beta1_pow_acc_0, %kwarg_linear_1.w_0.dist_beta2_pow_acc_0, <<NULL VALUE>>, <<NULL VALUE>>, %12, %13, %14) {amsgrad:false,chunk_id:-1,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:1000,multi_precision:false,op_role:2,stop_gradient:[false,false,false,false,false,false,false],use_global_beta_pow:false,with_decay:true} : (tensor<16x8xf32>, tensor<16x8xf32>, tensor<f32>, tensor<16x8xf32>, tensor<16x8xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>
    (%24) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>
    (%25) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>
    (%26) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>
    (%27) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%28) = "pd_op.scale_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %27) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>) -> tensor<16xf32>
    (%29, %30, %31, %32, %33, %34, %35) = "pd_op.adamw_" (%kwarg_linear_0.b_0.dist, %28, %kwarg_learning_rate_0, %kwarg_linear_0.b_0.dist_moment1_0, %kwarg_linear_0.b_0.dist_moment2_0, <<NULL VALUE>>, %kwarg_linear_0.b_0.dist_beta1_pow_acc_0, %kwarg_linear_0.b_0.dist_beta2_pow_acc_0, <<NULL VALUE>>, <<NULL VALUE>>, %24, %25, %26) {amsgrad:false,chunk_id:-1,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:1000,multi_precision:false,op_role:2,stop_gradient:[false,false,false,false,false,false,false],use_global_beta_pow:false,with_decay:true} : (tensor<16xf32>, tensor<16xf32>, tensor<f32>, tensor<16xf32>, tensor<16xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>
    (%36) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>
    (%37) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>
    (%38) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>
    (%39) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%40) = "pd_op.scale_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %39) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>) -> tensor<8x16xf32>
    (%41, %42, %43, %44, %45, %46, %47) = "pd_op.adamw_" (%kwarg_linear_0.w_0.dist, %40, %kwarg_learning_rate_0, %kwarg_linear_0.w_0.dist_moment1_0, %kwarg_linear_0.w_0.dist_moment2_0, <<NULL VALUE>>, %kwarg_linear_0.w_0.dist_beta1_pow_acc_0, %kwarg_linear_0.w_0.dist_beta2_pow_acc_0, <<NULL VALUE>>, <<NULL VALUE>>, %36, %37, %38) {amsgrad:false,chunk_id:-1,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:1000,multi_precision:false,op_role:2,stop_gradient:[false,false,false,false,false,false,false],use_global_beta_pow:false,with_decay:true} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, tensor<8x16xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, <<NULL TYPE>>
    (%48) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%49) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%50) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%51) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%52) = "pd_op.set_value_with_tensor_" (%kwarg_linear_1.b_0.dist@GRAD@MERGE, %48, %49, %50, %51) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%53) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%54) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%55) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%56) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%57) = "pd_op.set_value_with_tensor_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %53, %54, %55, %56) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16x8xf32>
    (%58) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%59) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%60) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%61) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%62) = "pd_op.set_value_with_tensor_" (%kwarg_linear_0.b_0.dist@GRAD@MERGE, %58, %59, %60, %61) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16xf32>
    (%63) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%64) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%65) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%66) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%67) = "pd_op.set_value_with_tensor_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %63, %64, %65, %66) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
}
