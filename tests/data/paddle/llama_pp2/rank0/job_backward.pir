{
    ^kw:
        %kwarg_linear_6.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_5.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_llama_rms_norm_1.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_llama_rms_norm_0.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_embedding_0.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_14_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_19_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_25_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_28_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_54_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_llama_rms_norm_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_55_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_53_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_20_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_18_pd_op.rsqrt_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_52_pd_op.silu_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_42_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_51_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_12_pd_op.embedding_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_21_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_49_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_input0 {persistable:false,place:Place(cpu)}
        %kwarg_var_13_pd_op.pow_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_46_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_48_pd_op.rsqrt_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_24_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_29_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_43_pd_op.pow_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_16_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_41_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_embedding_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_32_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_40_pd_op.reshape_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_50_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_38_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_36_pd_op.softmax_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_44_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_34_pd_op.full_0 {persistable:false,place:Place(cpu)}
    (%0) = "pd_op.recv_v2" () {chunk_id:-1,dtype:float32,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:1,out_shape:[2,4,8],peer:0,ring_id:13,scheduling_priority:0,stop_gradient:[true],use_calc_stream:true} : () -> tensor<2x4x8xf32>
    (%1, %2) = "pd_op.add_grad" (%kwarg_var_42_pd_op.add_0, %kwarg_var_55_pd_op.matmul_0, %0) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<2x4x8xf32>
    (%3, %4) = "pd_op.matmul_grad" (%kwarg_var_54_pd_op.multiply_0, %kwarg_linear_6.w_0.dist, %2) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x16xf32>, tensor<16x8xf32>
    (%5) = "pd_op.add_" (%kwarg_linear_6.w_0.dist@GRAD@MERGE, %4) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%6, %7) = "pd_op.multiply_grad" (%kwarg_var_52_pd_op.silu_0, %kwarg_var_53_pd_op.matmul_0, %3) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>, tensor<2x4x16xf32>
    (%8) = "pd_op.silu_grad" (%kwarg_var_51_pd_op.matmul_0, %kwarg_var_52_pd_op.silu_0, %6) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    (%9, %10) = "pd_op.matmul_grad" (%kwarg_var_50_pd_op.multiply_0, %kwarg_linear_5.w_0.dist, %7) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x8xf32>, tensor<8x16xf32>
    (%11) = "pd_op.add_" (%kwarg_linear_5.w_0.dist@GRAD@MERGE, %10) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%12, %13) = "pd_op.matmul_grad" (%kwarg_var_50_pd_op.multiply_0, %kwarg_linear_4.w_0.dist, %8) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x8xf32>, tensor<8x16xf32>
    (%14) = "pd_op.add_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %13) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%15) = "builtin.combine" (%9, %12) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%16) = "pd_op.add_n" (%15) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%17, %18) = "pd_op.multiply_grad" (%kwarg_var_49_pd_op.multiply_0, %kwarg_llama_rms_norm_1.w_0.dist, %16) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%19) = "pd_op.add_" (%kwarg_llama_rms_norm_1.w_0.dist@GRAD@MERGE, %18) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%20, %21) = "pd_op.multiply_grad" (%kwarg_var_48_pd_op.rsqrt_0, %kwarg_var_42_pd_op.add_0, %17) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x1xf32>, tensor<2x4x8xf32>
    (%22) = "pd_op.rsqrt_grad" (%kwarg_var_48_pd_op.rsqrt_0, %20) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%23) = "pd_op.scale" (%22, %kwarg_var_46_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%24) = "pd_op.mean_grad" (%kwarg_var_43_pd_op.pow_0, %23, %kwarg_var_44_pd_op.full_int_array_0) {chunk_id:-1,keepdim:true,op_role:1,reduce_all:false,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<1xi64>) -> tensor<2x4x8xf32>
    (%25) = "pd_op.pow_grad" (%kwarg_var_42_pd_op.add_0, %24) {chunk_id:-1,op_role:1,stop_gradient:[false],y:2} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%26) = "builtin.combine" (%1, %21, %25) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%27) = "pd_op.add_n" (%26) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%28, %29) = "pd_op.add_grad" (%kwarg_var_12_pd_op.embedding_0, %kwarg_var_41_pd_op.matmul_0, %27) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<2x4x8xf32>
    (%30, %31) = "pd_op.matmul_grad" (%kwarg_var_40_pd_op.reshape_0, %kwarg_linear_3.w_0.dist, %29) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%32) = "pd_op.add_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %31) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%33) = "pd_op.reshape_grad" (%kwarg_var_38_pd_op.transpose_0, %30) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x2x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x2x4xf32>
    (%34) = "pd_op.transpose_grad" (%33) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
    (%35, %36) = "pd_op.matmul_grad" (%kwarg_var_36_pd_op.softmax_0, %kwarg_var_32_pd_op.transpose_0, %34) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
    (%37) = "pd_op.softmax_grad" (%kwarg_var_36_pd_op.softmax_0, %35) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    (%38) = "pd_op.transpose_grad" (%36) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    (%39) = "pd_op.scale" (%37, %kwarg_var_34_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x2x4x4xf32>, tensor<1xf32>) -> tensor<2x2x4x4xf32>
    (%40) = "pd_op.reshape_grad" (%kwarg_var_29_pd_op.matmul_0, %38) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%41, %42) = "pd_op.matmul_grad" (%kwarg_var_24_pd_op.transpose_0, %kwarg_var_28_pd_op.transpose_0, %39) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:true} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
    (%43, %44) = "pd_op.matmul_grad" (%kwarg_var_20_pd_op.multiply_0, %kwarg_linear_2.w_0.dist, %40) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%45) = "pd_op.add_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %44) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%46) = "pd_op.transpose_grad" (%41) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    (%47) = "pd_op.transpose_grad" (%42) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    (%48) = "pd_op.reshape_grad" (%kwarg_var_21_pd_op.matmul_0, %46) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%49) = "pd_op.reshape_grad" (%kwarg_var_25_pd_op.matmul_0, %47) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%50, %51) = "pd_op.matmul_grad" (%kwarg_var_20_pd_op.multiply_0, %kwarg_linear_0.w_0.dist, %48) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%52) = "pd_op.add_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %51) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%53, %54) = "pd_op.matmul_grad" (%kwarg_var_20_pd_op.multiply_0, %kwarg_linear_1.w_0.dist, %49) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%55) = "pd_op.add_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %54) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%56) = "builtin.combine" (%43, %50, %53) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%57) = "pd_op.add_n" (%56) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%58, %59) = "pd_op.multiply_grad" (%kwarg_var_19_pd_op.multiply_0, %kwarg_llama_rms_norm_0.w_0.dist, %57) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%60) = "pd_op.add_" (%kwarg_llama_rms_norm_0.w_0.dist@GRAD@MERGE, %59) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%61, %62) = "pd_op.multiply_grad" (%kwarg_var_18_pd_op.rsqrt_0, %kwarg_var_12_pd_op.embedding_0, %58) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x1xf32>, tensor<2x4x8xf32>
    (%63) = "pd_op.rsqrt_grad" (%kwarg_var_18_pd_op.rsqrt_0, %61) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%64) = "pd_op.scale" (%63, %kwarg_var_16_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%65) = "pd_op.mean_grad" (%kwarg_var_13_pd_op.pow_0, %64, %kwarg_var_14_pd_op.full_int_array_0) {chunk_id:-1,keepdim:true,op_role:1,reduce_all:false,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<1xi64>) -> tensor<2x4x8xf32>
    (%66) = "pd_op.pow_grad" (%kwarg_var_12_pd_op.embedding_0, %65) {chunk_id:-1,op_role:1,stop_gradient:[false],y:2} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%67) = "builtin.combine" (%28, %62, %66) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%68) = "pd_op.add_n" (%67) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%69) = "pd_op.embedding_grad" (%kwarg_input0, %kwarg_embedding_0.w_0.dist, %68) {chunk_id:-1,op_role:1,padding_idx:-1,stop_gradient:[false]} : (tensor<2x4xi64>, tensor<16x8xf32>, tensor<2x4x8xf32>) -> tensor<16x8xf32>
    (%70) = "pd_op.add_" (%kwarg_embedding_0.w_0.dist@GRAD@MERGE, %69) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
}
