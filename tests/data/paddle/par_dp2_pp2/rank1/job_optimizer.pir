{
    ^kw:
        %kwarg_linear_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_learning_rate_0 {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.all_reduce" (%kwarg_linear_4.b_0.dist@GRAD@MERGE) {chunk_id:-1,op_role:2,reduce_type:0,ring_id:16,stop_gradient:[false]} : (tensor<4xf32>) -> tensor<4xf32>
    (%1) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%2) = "pd_op.scale_" (%0, %1) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
    (%3, %4) = "pd_op.sgd_" (%kwarg_linear_4.b_0.dist, %kwarg_learning_rate_0, %2, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<4xf32>, tensor<f32>, tensor<4xf32>, <<NULL TYPE>>) -> tensor<4xf32>, <<NULL TYPE>>
    (%5) = "pd_op.all_reduce" (%kwarg_linear_4.w_0.dist@GRAD@MERGE) {chunk_id:-1,op_role:2,reduce_type:0,ring_id:16,stop_gradient:[false]} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    (%6) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%7) = "pd_op.scale_" (%5, %6) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8x4xf32>, tensor<1xf32>) -> tensor<8x4xf32>
    (%8, %9) = "pd_op.sgd_" (%kwarg_linear_4.w_0.dist, %kwarg_learning_rate_0, %7, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x4xf32>, tensor<f32>, tensor<8x4xf32>, <<NULL TYPE>>) -> tensor<8x4xf32>, <<NULL TYPE>>
    (%10) = "pd_op.all_reduce" (%kwarg_linear_3.b_0.dist@GRAD@MERGE) {chunk_id:-1,op_role:2,reduce_type:0,ring_id:16,stop_gradient:[false]} : (tensor<8xf32>) -> tensor<8xf32>
    (%11) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%12) = "pd_op.scale_" (%10, %11) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    (%13, %14) = "pd_op.sgd_" (%kwarg_linear_3.b_0.dist, %kwarg_learning_rate_0, %12, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8xf32>, tensor<f32>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<8xf32>, <<NULL TYPE>>
    (%15) = "pd_op.all_reduce" (%kwarg_linear_3.w_0.dist@GRAD@MERGE) {chunk_id:-1,op_role:2,reduce_type:0,ring_id:16,stop_gradient:[false]} : (tensor<16x8xf32>) -> tensor<16x8xf32>
    (%16) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%17) = "pd_op.scale_" (%15, %16) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<1xf32>) -> tensor<16x8xf32>
    (%18, %19) = "pd_op.sgd_" (%kwarg_linear_3.w_0.dist, %kwarg_learning_rate_0, %17, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16x8xf32>, tensor<f32>, tensor<16x8xf32>, <<NULL TYPE>>) -> tensor<16x8xf32>, <<NULL TYPE>>
    (%20) = "pd_op.all_reduce" (%kwarg_linear_2.b_0.dist@GRAD@MERGE) {chunk_id:-1,op_role:2,reduce_type:0,ring_id:16,stop_gradient:[false]} : (tensor<16xf32>) -> tensor<16xf32>
    (%21) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%22) = "pd_op.scale_" (%20, %21) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<16xf32>, tensor<1xf32>) -> tensor<16xf32>
    (%23, %24) = "pd_op.sgd_" (%kwarg_linear_2.b_0.dist, %kwarg_learning_rate_0, %22, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<16xf32>, tensor<f32>, tensor<16xf32>, <<NULL TYPE>>) -> tensor<16xf32>, <<NULL TYPE>>
    (%25) = "pd_op.all_reduce" (%kwarg_linear_2.w_0.dist@GRAD@MERGE) {chunk_id:-1,op_role:2,reduce_type:0,ring_id:16,stop_gradient:[false]} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    (%26) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%27) = "pd_op.scale_" (%25, %26) {bias:0,bias_after_scale:false,chunk_id:-1,op_role:2,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<1xf32>) -> tensor<8x16xf32>
    (%28, %29) = "pd_op.sgd_" (%kwarg_linear_2.w_0.dist, %kwarg_learning_rate_0, %27, <<NULL VALUE>>) {chunk_id:-1,multi_precision:false,op_role:2,stop_gradient:[true,false]} : (tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, <<NULL TYPE>>) -> tensor<8x16xf32>, <<NULL TYPE>>
    (%30) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%31) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%32) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%33) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%34) = "pd_op.set_value_with_tensor_" (%kwarg_linear_4.b_0.dist@GRAD@MERGE, %30, %31, %32, %33) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<4xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<4xf32>
    (%35) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%36) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%37) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%38) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%39) = "pd_op.set_value_with_tensor_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %35, %36, %37, %38) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x4xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x4xf32>
    (%40) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%41) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%42) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%43) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%44) = "pd_op.set_value_with_tensor_" (%kwarg_linear_3.b_0.dist@GRAD@MERGE, %40, %41, %42, %43) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8xf32>
    (%45) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%46) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%47) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%48) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%49) = "pd_op.set_value_with_tensor_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %45, %46, %47, %48) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16x8xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16x8xf32>
    (%50) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%51) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%52) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%53) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%54) = "pd_op.set_value_with_tensor_" (%kwarg_linear_2.b_0.dist@GRAD@MERGE, %50, %51, %52, %53) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<16xf32>
    (%55) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:2,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%56) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%57) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%58) = "pd_op.full_int_array" () {chunk_id:-1,dtype:int64,op_role:2,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%59) = "pd_op.set_value_with_tensor_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %55, %56, %57, %58) {axes:[],chunk_id:-1,decrease_axes:[],none_axes:[],op_role:2,stop_gradient:[true]} : (tensor<8x16xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xi64>, tensor<0xi64>) -> tensor<8x16xf32>
}
