{
    ^kw:
        %kwarg_linear_14.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_12.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_10.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_55_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_13.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_9.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_63_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_67_pd_op.rsqrt_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_69_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_37_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_71_pd_op.cross_entropy_with_softmax_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_29_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_14.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_62_pd_op.pow_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_59_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_46_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_llama_rms_norm_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_56_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_12.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_68_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_13.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_33_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_57_pd_op.silu_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_8.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_34_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_71_pd_op.cross_entropy_with_softmax_1 {persistable:false,place:Place(cpu)}
        %kwarg_linear_11.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_11.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_10.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_54_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_8.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_43_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_17_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_58_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_loss_0 {persistable:false,place:Place(cpu)}
        %kwarg_llama_rms_norm_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_61_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_24_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_72_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_llama_rms_norm_2.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_53_pd_op.rsqrt_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_25_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_51_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_16_pd_op.share_data__0 {persistable:false,place:Place(cpu)}
        %kwarg_var_49_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_48_pd_op.pow_0 {persistable:false,place:Place(cpu)}
        %kwarg_llama_rms_norm_3.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_15_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_60_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_47_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_45_pd_op.reshape_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_41_pd_op.softmax_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_39_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_30_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_llama_rms_norm_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_26_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_7.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_23_pd_op.rsqrt_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_19_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_21_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_18_pd_op.pow_0 {persistable:false,place:Place(cpu)}
        %kwarg_label0 {persistable:false,place:Place(cpu)}
        %kwarg_var_65_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_9.w_0.dist {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:1,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%1) = "pd_op.full_like" (%kwarg_loss_0, %0) {chunk_id:-1,dtype:float32,op_role:1,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f32>, tensor<1xf32>) -> tensor<f32>
    (%2) = "pd_op.mean_grad" (%kwarg_var_71_pd_op.cross_entropy_with_softmax_1, %1, %kwarg_var_72_pd_op.full_int_array_0) {chunk_id:-1,keepdim:false,op_role:1,reduce_all:false,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<f32>, tensor<0xi64>) -> tensor<2x4x1xf32>
    (%3) = "pd_op.cross_entropy_with_softmax_grad" (%kwarg_label0, %kwarg_var_71_pd_op.cross_entropy_with_softmax_0, %2) {axis:-1,chunk_id:-1,ignore_index:-100,numeric_stable_mode:true,op_role:1,soft_label:false,stop_gradient:[false],use_softmax:true} : (tensor<2x4x1xi64>, tensor<2x4x16xf32>, tensor<2x4x1xf32>) -> tensor<2x4x16xf32>
    (%4, %5) = "pd_op.matmul_grad" (%kwarg_var_69_pd_op.multiply_0, %kwarg_linear_14.w_0.dist, %3) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x8xf32>, tensor<8x16xf32>
    (%6) = "pd_op.add_" (%kwarg_linear_14.w_0.dist@GRAD@MERGE, %5) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%7, %8) = "pd_op.multiply_grad" (%kwarg_var_68_pd_op.multiply_0, %kwarg_llama_rms_norm_4.w_0.dist, %4) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%9) = "pd_op.add_" (%kwarg_llama_rms_norm_4.w_0.dist@GRAD@MERGE, %8) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%10, %11) = "pd_op.multiply_grad" (%kwarg_var_67_pd_op.rsqrt_0, %kwarg_var_61_pd_op.add_0, %7) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x1xf32>, tensor<2x4x8xf32>
    (%12) = "pd_op.rsqrt_grad" (%kwarg_var_67_pd_op.rsqrt_0, %10) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%13) = "pd_op.scale" (%12, %kwarg_var_65_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%14) = "pd_op.mean_grad" (%kwarg_var_62_pd_op.pow_0, %13, %kwarg_var_63_pd_op.full_int_array_0) {chunk_id:-1,keepdim:true,op_role:1,reduce_all:false,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<1xi64>) -> tensor<2x4x8xf32>
    (%15) = "pd_op.pow_grad" (%kwarg_var_61_pd_op.add_0, %14) {chunk_id:-1,op_role:1,stop_gradient:[false],y:2} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%16) = "builtin.combine" (%11, %15) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%17) = "pd_op.add_n" (%16) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%18, %19) = "pd_op.add_grad" (%kwarg_var_47_pd_op.add_0, %kwarg_var_60_pd_op.matmul_0, %17) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<2x4x8xf32>
    (%20, %21) = "pd_op.matmul_grad" (%kwarg_var_59_pd_op.multiply_0, %kwarg_linear_13.w_0.dist, %19) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x16xf32>, tensor<16x8xf32>
    (%22) = "pd_op.add_" (%kwarg_linear_13.w_0.dist@GRAD@MERGE, %21) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%23, %24) = "pd_op.multiply_grad" (%kwarg_var_57_pd_op.silu_0, %kwarg_var_58_pd_op.matmul_0, %20) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>, tensor<2x4x16xf32>
    (%25) = "pd_op.silu_grad" (%kwarg_var_56_pd_op.matmul_0, %kwarg_var_57_pd_op.silu_0, %23) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    (%26, %27) = "pd_op.matmul_grad" (%kwarg_var_55_pd_op.multiply_0, %kwarg_linear_12.w_0.dist, %24) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x8xf32>, tensor<8x16xf32>
    (%28) = "pd_op.add_" (%kwarg_linear_12.w_0.dist@GRAD@MERGE, %27) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%29, %30) = "pd_op.matmul_grad" (%kwarg_var_55_pd_op.multiply_0, %kwarg_linear_11.w_0.dist, %25) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x8xf32>, tensor<8x16xf32>
    (%31) = "pd_op.add_" (%kwarg_linear_11.w_0.dist@GRAD@MERGE, %30) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%32) = "builtin.combine" (%26, %29) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%33) = "pd_op.add_n" (%32) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%34, %35) = "pd_op.multiply_grad" (%kwarg_var_54_pd_op.multiply_0, %kwarg_llama_rms_norm_3.w_0.dist, %33) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%36) = "pd_op.add_" (%kwarg_llama_rms_norm_3.w_0.dist@GRAD@MERGE, %35) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%37, %38) = "pd_op.multiply_grad" (%kwarg_var_53_pd_op.rsqrt_0, %kwarg_var_47_pd_op.add_0, %34) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x1xf32>, tensor<2x4x8xf32>
    (%39) = "pd_op.rsqrt_grad" (%kwarg_var_53_pd_op.rsqrt_0, %37) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%40) = "pd_op.scale" (%39, %kwarg_var_51_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%41) = "pd_op.mean_grad" (%kwarg_var_48_pd_op.pow_0, %40, %kwarg_var_49_pd_op.full_int_array_0) {chunk_id:-1,keepdim:true,op_role:1,reduce_all:false,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<1xi64>) -> tensor<2x4x8xf32>
    (%42) = "pd_op.pow_grad" (%kwarg_var_47_pd_op.add_0, %41) {chunk_id:-1,op_role:1,stop_gradient:[false],y:2} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%43) = "builtin.combine" (%18, %38, %42) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%44) = "pd_op.add_n" (%43) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%45, %46) = "pd_op.add_grad" (%kwarg_var_17_pd_op.add_0, %kwarg_var_46_pd_op.matmul_0, %44) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<2x4x8xf32>
    (%47, %48) = "pd_op.add_grad" (%kwarg_var_15_pd_op.recv_v2_0, %kwarg_var_16_pd_op.share_data__0, %45) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, <<NULL TYPE>>
    (%49, %50) = "pd_op.matmul_grad" (%kwarg_var_45_pd_op.reshape_0, %kwarg_linear_10.w_0.dist, %46) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%51) = "pd_op.add_" (%kwarg_linear_10.w_0.dist@GRAD@MERGE, %50) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%52) = "pd_op.reshape_grad" (%kwarg_var_43_pd_op.transpose_0, %49) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x2x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x2x4xf32>
    (%53) = "pd_op.transpose_grad" (%52) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
    (%54, %55) = "pd_op.matmul_grad" (%kwarg_var_41_pd_op.softmax_0, %kwarg_var_37_pd_op.transpose_0, %53) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
    (%56) = "pd_op.softmax_grad" (%kwarg_var_41_pd_op.softmax_0, %54) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    (%57) = "pd_op.transpose_grad" (%55) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    (%58) = "pd_op.scale" (%56, %kwarg_var_39_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x2x4x4xf32>, tensor<1xf32>) -> tensor<2x2x4x4xf32>
    (%59) = "pd_op.reshape_grad" (%kwarg_var_34_pd_op.matmul_0, %57) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%60, %61) = "pd_op.matmul_grad" (%kwarg_var_29_pd_op.transpose_0, %kwarg_var_33_pd_op.transpose_0, %58) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:true} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
    (%62, %63) = "pd_op.matmul_grad" (%kwarg_var_25_pd_op.multiply_0, %kwarg_linear_9.w_0.dist, %59) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%64) = "pd_op.add_" (%kwarg_linear_9.w_0.dist@GRAD@MERGE, %63) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%65) = "pd_op.transpose_grad" (%60) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    (%66) = "pd_op.transpose_grad" (%61) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    (%67) = "pd_op.reshape_grad" (%kwarg_var_26_pd_op.matmul_0, %65) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%68) = "pd_op.reshape_grad" (%kwarg_var_30_pd_op.matmul_0, %66) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%69, %70) = "pd_op.matmul_grad" (%kwarg_var_25_pd_op.multiply_0, %kwarg_linear_7.w_0.dist, %67) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%71) = "pd_op.add_" (%kwarg_linear_7.w_0.dist@GRAD@MERGE, %70) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%72, %73) = "pd_op.matmul_grad" (%kwarg_var_25_pd_op.multiply_0, %kwarg_linear_8.w_0.dist, %68) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%74) = "pd_op.add_" (%kwarg_linear_8.w_0.dist@GRAD@MERGE, %73) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%75) = "builtin.combine" (%62, %69, %72) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%76) = "pd_op.add_n" (%75) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%77, %78) = "pd_op.multiply_grad" (%kwarg_var_24_pd_op.multiply_0, %kwarg_llama_rms_norm_2.w_0.dist, %76) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%79) = "pd_op.add_" (%kwarg_llama_rms_norm_2.w_0.dist@GRAD@MERGE, %78) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%80, %81) = "pd_op.multiply_grad" (%kwarg_var_23_pd_op.rsqrt_0, %kwarg_var_15_pd_op.recv_v2_0, %77) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x1xf32>, tensor<2x4x8xf32>
    (%82) = "pd_op.rsqrt_grad" (%kwarg_var_23_pd_op.rsqrt_0, %80) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%83) = "pd_op.scale" (%82, %kwarg_var_21_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%84) = "pd_op.mean_grad" (%kwarg_var_18_pd_op.pow_0, %83, %kwarg_var_19_pd_op.full_int_array_0) {chunk_id:-1,keepdim:true,op_role:1,reduce_all:false,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<1xi64>) -> tensor<2x4x8xf32>
    (%85) = "pd_op.pow_grad" (%kwarg_var_15_pd_op.recv_v2_0, %84) {chunk_id:-1,op_role:1,stop_gradient:[false],y:2} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%86) = "builtin.combine" (%47, %81, %85) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%87) = "pd_op.add_n" (%86) {chunk_id:-1,event_to_record:"var_142_pd_op.add_n_0",force_record_event:true,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%87) {output_name:"var_142_pd_op.add_n_0"} : (tensor<2x4x8xf32>) -> 
}
