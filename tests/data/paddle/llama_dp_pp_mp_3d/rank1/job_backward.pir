{
    ^kw:
        %kwarg_linear_14.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_12.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_10.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_7.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_39_pd_op.softmax_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_8.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_64_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_72_pd_op.rsqrt_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_66_pd_op.pow_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_14.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_43_pd_op.reshape_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_61_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_74_pd_op.share_data__0 {persistable:false,place:Place(cpu)}
        %kwarg_var_67_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_8.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_75_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_49_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_77_pd_op.cross_entropy_with_softmax_1 {persistable:false,place:Place(cpu)}
        %kwarg_var_31_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_llama_rms_norm_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_65_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_57_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_69_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_41_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_13.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_9.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_23_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_77_pd_op.cross_entropy_with_softmax_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_11.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_11.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_12.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_10.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_13_pd_op.recv_v2_0 {persistable:false,place:Place(cpu)}
        %kwarg_loss_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_73_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_60_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_47_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_llama_rms_norm_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_17_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_58_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_78_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_35_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_55_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_13.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_15_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_54_pd_op.rsqrt_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_20_pd_op.rsqrt_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_51_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_48_pd_op.pow_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_24_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_label0 {persistable:false,place:Place(cpu)}
        %kwarg_var_46_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_56_pd_op.share_data__0 {persistable:false,place:Place(cpu)}
        %kwarg_var_37_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_32_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_28_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_21_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_27_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_9.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_59_pd_op.silu_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_22_pd_op.share_data__0 {persistable:false,place:Place(cpu)}
        %kwarg_var_14_pd_op.pow_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_7.w_0.dist {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.full" () {chunk_id:-1,dtype:float32,op_role:1,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%1) = "pd_op.full_like" (%kwarg_loss_0, %0) {chunk_id:-1,dtype:float32,op_role:1,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f32>, tensor<1xf32>) -> tensor<f32>
    (%2) = "pd_op.mean_grad" (%kwarg_var_77_pd_op.cross_entropy_with_softmax_1, %1, %kwarg_var_78_pd_op.full_int_array_0) {chunk_id:-1,keepdim:false,op_role:1,reduce_all:false,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<f32>, tensor<0xi64>) -> tensor<2x4x1xf32>
    (%3) = "pd_op.cross_entropy_with_softmax_grad" (%kwarg_label0, %kwarg_var_77_pd_op.cross_entropy_with_softmax_0, %2) {axis:-1,chunk_id:-1,ignore_index:-100,numeric_stable_mode:true,op_role:1,replace_all_uses_with_reshard_var:true,soft_label:false,stop_gradient:[false],use_softmax:true} : (tensor<2x4x1xi64>, tensor<2x4x16xf32>, tensor<2x4x1xf32>) -> tensor<2x4x16xf32>
    (%4, %5) = "pd_op.matmul_grad" (%kwarg_var_75_pd_op.multiply_0, %kwarg_linear_14.w_0.dist, %3) {chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x8xf32>, tensor<8x16xf32>
    (%6) = "pd_op.add_" (%kwarg_linear_14.w_0.dist@GRAD@MERGE, %5) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%7) = "pd_op.transpose" (%4) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%8) = "pd_op.transpose" (%7) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    (%9, %10) = "pd_op.multiply_grad" (%kwarg_var_73_pd_op.multiply_0, %kwarg_var_74_pd_op.share_data__0, %8) {axis:-1,chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%11) = "pd_op.add_" (%kwarg_llama_rms_norm_4.w_0.dist@GRAD@MERGE, %10) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%12, %13) = "pd_op.multiply_grad" (%kwarg_var_72_pd_op.rsqrt_0, %kwarg_var_65_pd_op.add_0, %9) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x1xf32>, tensor<2x4x8xf32>
    (%14) = "pd_op.rsqrt_grad" (%kwarg_var_72_pd_op.rsqrt_0, %12) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%15) = "pd_op.scale" (%14, %kwarg_var_69_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%16) = "pd_op.share_data_" (%kwarg_var_66_pd_op.pow_0) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%17) = "pd_op.mean_grad" (%16, %15, %kwarg_var_67_pd_op.full_int_array_0) {chunk_id:-1,keepdim:true,op_role:1,reduce_all:false,replace_all_uses_with_reshard_var:true,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<1xi64>) -> tensor<2x4x8xf32>
    (%18) = "pd_op.pow_grad" (%kwarg_var_65_pd_op.add_0, %17) {chunk_id:-1,op_role:1,stop_gradient:[false],y:2} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%19) = "builtin.combine" (%13, %18) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%20) = "pd_op.add_n" (%19) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%21, %22) = "pd_op.add_grad" (%kwarg_var_47_pd_op.add_0, %kwarg_var_64_pd_op.transpose_0, %20) {axis:-1,chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<2x4x8xf32>
    (%23, %24) = "pd_op.matmul_grad" (%kwarg_var_61_pd_op.multiply_0, %kwarg_linear_13.w_0.dist, %22) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x16xf32>, tensor<16x8xf32>
    (%25) = "pd_op.add_" (%kwarg_linear_13.w_0.dist@GRAD@MERGE, %24) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%26, %27) = "pd_op.multiply_grad" (%kwarg_var_59_pd_op.silu_0, %kwarg_var_60_pd_op.matmul_0, %23) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>, tensor<2x4x16xf32>
    (%28) = "pd_op.silu_grad" (%kwarg_var_58_pd_op.matmul_0, %kwarg_var_59_pd_op.silu_0, %26) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    (%29, %30) = "pd_op.matmul_grad" (%kwarg_var_57_pd_op.multiply_0, %kwarg_linear_12.w_0.dist, %27) {chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x8xf32>, tensor<8x16xf32>
    (%31) = "pd_op.add_" (%kwarg_linear_12.w_0.dist@GRAD@MERGE, %30) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%32) = "pd_op.transpose" (%29) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%33) = "pd_op.transpose" (%32) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    (%34, %35) = "pd_op.matmul_grad" (%kwarg_var_57_pd_op.multiply_0, %kwarg_linear_11.w_0.dist, %28) {chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x8xf32>, tensor<8x16xf32>
    (%36) = "pd_op.add_" (%kwarg_linear_11.w_0.dist@GRAD@MERGE, %35) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%37) = "pd_op.transpose" (%34) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%38) = "pd_op.transpose" (%37) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    (%39) = "builtin.combine" (%33, %38) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%40) = "pd_op.add_n" (%39) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%41, %42) = "pd_op.multiply_grad" (%kwarg_var_55_pd_op.multiply_0, %kwarg_var_56_pd_op.share_data__0, %40) {axis:-1,chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%43) = "pd_op.add_" (%kwarg_llama_rms_norm_3.w_0.dist@GRAD@MERGE, %42) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%44, %45) = "pd_op.multiply_grad" (%kwarg_var_54_pd_op.rsqrt_0, %kwarg_var_47_pd_op.add_0, %41) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x1xf32>, tensor<2x4x8xf32>
    (%46) = "pd_op.rsqrt_grad" (%kwarg_var_54_pd_op.rsqrt_0, %44) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%47) = "pd_op.scale" (%46, %kwarg_var_51_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%48) = "pd_op.share_data_" (%kwarg_var_48_pd_op.pow_0) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%49) = "pd_op.mean_grad" (%48, %47, %kwarg_var_49_pd_op.full_int_array_0) {chunk_id:-1,keepdim:true,op_role:1,reduce_all:false,replace_all_uses_with_reshard_var:true,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<1xi64>) -> tensor<2x4x8xf32>
    (%50) = "pd_op.pow_grad" (%kwarg_var_47_pd_op.add_0, %49) {chunk_id:-1,op_role:1,stop_gradient:[false],y:2} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%51) = "builtin.combine" (%21, %45, %50) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%52) = "pd_op.add_n" (%51) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%53, %54) = "pd_op.add_grad" (%kwarg_var_13_pd_op.recv_v2_0, %kwarg_var_46_pd_op.transpose_0, %52) {axis:-1,chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<2x4x8xf32>
    (%55, %56) = "pd_op.matmul_grad" (%kwarg_var_43_pd_op.reshape_0, %kwarg_linear_10.w_0.dist, %54) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%57) = "pd_op.add_" (%kwarg_linear_10.w_0.dist@GRAD@MERGE, %56) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%58) = "pd_op.reshape_grad" (%kwarg_var_41_pd_op.transpose_0, %55) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x2x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x2x4xf32>
    (%59) = "pd_op.transpose_grad" (%58) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
    (%60, %61) = "pd_op.matmul_grad" (%kwarg_var_39_pd_op.softmax_0, %kwarg_var_35_pd_op.transpose_0, %59) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
    (%62) = "pd_op.softmax_grad" (%kwarg_var_39_pd_op.softmax_0, %60) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    (%63) = "pd_op.transpose_grad" (%61) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    (%64) = "pd_op.scale" (%62, %kwarg_var_37_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x2x4x4xf32>, tensor<1xf32>) -> tensor<2x2x4x4xf32>
    (%65) = "pd_op.reshape_grad" (%kwarg_var_32_pd_op.matmul_0, %63) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%66, %67) = "pd_op.matmul_grad" (%kwarg_var_27_pd_op.transpose_0, %kwarg_var_31_pd_op.transpose_0, %64) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:true} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
    (%68, %69) = "pd_op.matmul_grad" (%kwarg_var_23_pd_op.multiply_0, %kwarg_linear_9.w_0.dist, %65) {chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%70) = "pd_op.add_" (%kwarg_linear_9.w_0.dist@GRAD@MERGE, %69) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%71) = "pd_op.transpose" (%68) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%72) = "pd_op.transpose" (%71) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    (%73) = "pd_op.transpose_grad" (%66) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    (%74) = "pd_op.transpose_grad" (%67) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    (%75) = "pd_op.reshape_grad" (%kwarg_var_24_pd_op.matmul_0, %73) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%76) = "pd_op.reshape_grad" (%kwarg_var_28_pd_op.matmul_0, %74) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%77, %78) = "pd_op.matmul_grad" (%kwarg_var_23_pd_op.multiply_0, %kwarg_linear_7.w_0.dist, %75) {chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%79) = "pd_op.add_" (%kwarg_linear_7.w_0.dist@GRAD@MERGE, %78) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%80) = "pd_op.transpose" (%77) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%81) = "pd_op.transpose" (%80) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    (%82, %83) = "pd_op.matmul_grad" (%kwarg_var_23_pd_op.multiply_0, %kwarg_linear_8.w_0.dist, %76) {chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%84) = "pd_op.add_" (%kwarg_linear_8.w_0.dist@GRAD@MERGE, %83) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%85) = "pd_op.transpose" (%82) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%86) = "pd_op.transpose" (%85) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    (%87) = "builtin.combine" (%72, %81, %86) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%88) = "pd_op.add_n" (%87) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%89, %90) = "pd_op.multiply_grad" (%kwarg_var_21_pd_op.multiply_0, %kwarg_var_22_pd_op.share_data__0, %88) {axis:-1,chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%91) = "pd_op.add_" (%kwarg_llama_rms_norm_2.w_0.dist@GRAD@MERGE, %90) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%92, %93) = "pd_op.multiply_grad" (%kwarg_var_20_pd_op.rsqrt_0, %kwarg_var_13_pd_op.recv_v2_0, %89) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x1xf32>, tensor<2x4x8xf32>
    (%94) = "pd_op.rsqrt_grad" (%kwarg_var_20_pd_op.rsqrt_0, %92) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%95) = "pd_op.scale" (%94, %kwarg_var_17_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%96) = "pd_op.share_data_" (%kwarg_var_14_pd_op.pow_0) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%97) = "pd_op.mean_grad" (%96, %95, %kwarg_var_15_pd_op.full_int_array_0) {chunk_id:-1,keepdim:true,op_role:1,reduce_all:false,replace_all_uses_with_reshard_var:true,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<1xi64>) -> tensor<2x4x8xf32>
    (%98) = "pd_op.pow_grad" (%kwarg_var_13_pd_op.recv_v2_0, %97) {chunk_id:-1,op_role:1,stop_gradient:[false],y:2} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%99) = "builtin.combine" (%53, %93, %98) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%100) = "pd_op.add_n" (%99) {chunk_id:-1,event_to_record:"var_171_pd_op.add_n_0",force_record_event:true,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    () = "builtin.shadow_output" (%100) {output_name:"var_171_pd_op.add_n_0"} : (tensor<2x4x8xf32>) -> 
}
