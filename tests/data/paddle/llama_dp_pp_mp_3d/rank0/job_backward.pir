{
    ^kw:
        %kwarg_linear_6.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_4.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_linear_2.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_embedding_0.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_12_pd_op.embedding_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_5.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_19_pd_op.rsqrt_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_23_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_30_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_input0 {persistable:false,place:Place(cpu)}
        %kwarg_var_13_pd_op.pow_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_31_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_21_pd_op.share_data__0 {persistable:false,place:Place(cpu)}
        %kwarg_var_59_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_14_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_63_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_38_pd_op.softmax_0 {persistable:false,place:Place(cpu)}
        %kwarg_llama_rms_norm_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_26_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_55_pd_op.share_data__0 {persistable:false,place:Place(cpu)}
        %kwarg_var_46_pd_op.add_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_22_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_40_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_36_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_57_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_45_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_34_pd_op.transpose_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_16_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_56_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_3.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_20_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_50_pd_op.full_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_1.w_0.dist {persistable:true,place:Place(cpu)}
        %kwarg_var_27_pd_op.matmul_0 {persistable:false,place:Place(cpu)}
        %kwarg_embedding_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_48_pd_op.full_int_array_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_53_pd_op.rsqrt_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_47_pd_op.pow_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_54_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_60_pd_op.multiply_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_58_pd_op.silu_0 {persistable:false,place:Place(cpu)}
        %kwarg_var_42_pd_op.reshape_0 {persistable:false,place:Place(cpu)}
    (%0) = "pd_op.recv_v2" () {chunk_id:-1,dtype:float32,dynamic_shape:false,execution_stream:"send_recv_stream",op_role:1,out_shape:[2,4,8],peer:0,ring_id:14,scheduling_priority:0,stop_gradient:[true],use_calc_stream:true} : () -> tensor<2x4x8xf32>
    (%1, %2) = "pd_op.add_grad" (%kwarg_var_46_pd_op.add_0, %kwarg_var_63_pd_op.transpose_0, %0) {axis:-1,chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<2x4x8xf32>
    (%3, %4) = "pd_op.matmul_grad" (%kwarg_var_60_pd_op.multiply_0, %kwarg_linear_6.w_0.dist, %2) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x16xf32>, tensor<16x8xf32>
    (%5) = "pd_op.add_" (%kwarg_linear_6.w_0.dist@GRAD@MERGE, %4) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    (%6, %7) = "pd_op.multiply_grad" (%kwarg_var_58_pd_op.silu_0, %kwarg_var_59_pd_op.matmul_0, %3) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>, tensor<2x4x16xf32>
    (%8) = "pd_op.silu_grad" (%kwarg_var_57_pd_op.matmul_0, %kwarg_var_58_pd_op.silu_0, %6) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    (%9, %10) = "pd_op.matmul_grad" (%kwarg_var_56_pd_op.multiply_0, %kwarg_linear_5.w_0.dist, %7) {chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x8xf32>, tensor<8x16xf32>
    (%11) = "pd_op.add_" (%kwarg_linear_5.w_0.dist@GRAD@MERGE, %10) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%12) = "pd_op.transpose" (%9) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%13) = "pd_op.transpose" (%12) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    (%14, %15) = "pd_op.matmul_grad" (%kwarg_var_56_pd_op.multiply_0, %kwarg_linear_4.w_0.dist, %8) {chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x8xf32>, tensor<8x16xf32>
    (%16) = "pd_op.add_" (%kwarg_linear_4.w_0.dist@GRAD@MERGE, %15) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    (%17) = "pd_op.transpose" (%14) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%18) = "pd_op.transpose" (%17) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    (%19) = "builtin.combine" (%13, %18) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%20) = "pd_op.add_n" (%19) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%21, %22) = "pd_op.multiply_grad" (%kwarg_var_54_pd_op.multiply_0, %kwarg_var_55_pd_op.share_data__0, %20) {axis:-1,chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%23) = "pd_op.add_" (%kwarg_llama_rms_norm_1.w_0.dist@GRAD@MERGE, %22) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%24, %25) = "pd_op.multiply_grad" (%kwarg_var_53_pd_op.rsqrt_0, %kwarg_var_46_pd_op.add_0, %21) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x1xf32>, tensor<2x4x8xf32>
    (%26) = "pd_op.rsqrt_grad" (%kwarg_var_53_pd_op.rsqrt_0, %24) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%27) = "pd_op.scale" (%26, %kwarg_var_50_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%28) = "pd_op.share_data_" (%kwarg_var_47_pd_op.pow_0) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%29) = "pd_op.mean_grad" (%28, %27, %kwarg_var_48_pd_op.full_int_array_0) {chunk_id:-1,keepdim:true,op_role:1,reduce_all:false,replace_all_uses_with_reshard_var:true,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<1xi64>) -> tensor<2x4x8xf32>
    (%30) = "pd_op.pow_grad" (%kwarg_var_46_pd_op.add_0, %29) {chunk_id:-1,op_role:1,stop_gradient:[false],y:2} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%31) = "builtin.combine" (%1, %25, %30) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%32) = "pd_op.add_n" (%31) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%33, %34) = "pd_op.add_grad" (%kwarg_var_12_pd_op.embedding_0, %kwarg_var_45_pd_op.transpose_0, %32) {axis:-1,chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<2x4x8xf32>
    (%35, %36) = "pd_op.matmul_grad" (%kwarg_var_42_pd_op.reshape_0, %kwarg_linear_3.w_0.dist, %34) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%37) = "pd_op.add_" (%kwarg_linear_3.w_0.dist@GRAD@MERGE, %36) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%38) = "pd_op.reshape_grad" (%kwarg_var_40_pd_op.transpose_0, %35) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x2x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x2x4xf32>
    (%39) = "pd_op.transpose_grad" (%38) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
    (%40, %41) = "pd_op.matmul_grad" (%kwarg_var_38_pd_op.softmax_0, %kwarg_var_34_pd_op.transpose_0, %39) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
    (%42) = "pd_op.softmax_grad" (%kwarg_var_38_pd_op.softmax_0, %40) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    (%43) = "pd_op.transpose_grad" (%41) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    (%44) = "pd_op.scale" (%42, %kwarg_var_36_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x2x4x4xf32>, tensor<1xf32>) -> tensor<2x2x4x4xf32>
    (%45) = "pd_op.reshape_grad" (%kwarg_var_31_pd_op.matmul_0, %43) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%46, %47) = "pd_op.matmul_grad" (%kwarg_var_26_pd_op.transpose_0, %kwarg_var_30_pd_op.transpose_0, %44) {chunk_id:-1,op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:true} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
    (%48, %49) = "pd_op.matmul_grad" (%kwarg_var_22_pd_op.multiply_0, %kwarg_linear_2.w_0.dist, %45) {chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%50) = "pd_op.add_" (%kwarg_linear_2.w_0.dist@GRAD@MERGE, %49) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%51) = "pd_op.transpose" (%48) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%52) = "pd_op.transpose" (%51) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    (%53) = "pd_op.transpose_grad" (%46) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    (%54) = "pd_op.transpose_grad" (%47) {chunk_id:-1,op_role:1,perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
    (%55) = "pd_op.reshape_grad" (%kwarg_var_23_pd_op.matmul_0, %53) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%56) = "pd_op.reshape_grad" (%kwarg_var_27_pd_op.matmul_0, %54) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%57, %58) = "pd_op.matmul_grad" (%kwarg_var_22_pd_op.multiply_0, %kwarg_linear_0.w_0.dist, %55) {chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%59) = "pd_op.add_" (%kwarg_linear_0.w_0.dist@GRAD@MERGE, %58) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%60) = "pd_op.transpose" (%57) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%61) = "pd_op.transpose" (%60) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    (%62, %63) = "pd_op.matmul_grad" (%kwarg_var_22_pd_op.multiply_0, %kwarg_linear_1.w_0.dist, %56) {chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%64) = "pd_op.add_" (%kwarg_linear_1.w_0.dist@GRAD@MERGE, %63) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    (%65) = "pd_op.transpose" (%62) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
    (%66) = "pd_op.transpose" (%65) {chunk_id:-1,op_role:1,perm:[2,1,0],stop_gradient:[false]} : (tensor<8x4x2xf32>) -> tensor<2x4x8xf32>
    (%67) = "builtin.combine" (%52, %61, %66) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%68) = "pd_op.add_n" (%67) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%69, %70) = "pd_op.multiply_grad" (%kwarg_var_20_pd_op.multiply_0, %kwarg_var_21_pd_op.share_data__0, %68) {axis:-1,chunk_id:-1,op_role:1,replace_all_uses_with_reshard_var:true,stop_gradient:[false,false]} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>
    (%71) = "pd_op.add_" (%kwarg_llama_rms_norm_0.w_0.dist@GRAD@MERGE, %70) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    (%72, %73) = "pd_op.multiply_grad" (%kwarg_var_19_pd_op.rsqrt_0, %kwarg_var_12_pd_op.embedding_0, %69) {axis:-1,chunk_id:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x4x1xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x1xf32>, tensor<2x4x8xf32>
    (%74) = "pd_op.rsqrt_grad" (%kwarg_var_19_pd_op.rsqrt_0, %72) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    (%75) = "pd_op.scale" (%74, %kwarg_var_16_pd_op.full_0) {bias:0,bias_after_scale:true,chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x1xf32>, tensor<1xf32>) -> tensor<2x4x1xf32>
    (%76) = "pd_op.share_data_" (%kwarg_var_13_pd_op.pow_0) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%77) = "pd_op.mean_grad" (%76, %75, %kwarg_var_14_pd_op.full_int_array_0) {chunk_id:-1,keepdim:true,op_role:1,reduce_all:false,replace_all_uses_with_reshard_var:true,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<1xi64>) -> tensor<2x4x8xf32>
    (%78) = "pd_op.pow_grad" (%kwarg_var_12_pd_op.embedding_0, %77) {chunk_id:-1,op_role:1,stop_gradient:[false],y:2} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%79) = "builtin.combine" (%33, %73, %78) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%80) = "pd_op.add_n" (%79) {chunk_id:-1,op_role:1,stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%81) = "pd_op.embedding_grad" (%kwarg_input0, %kwarg_embedding_0.w_0.dist, %80) {chunk_id:-1,op_role:1,padding_idx:-1,stop_gradient:[false]} : (tensor<2x4xi64>, tensor<16x8xf32>, tensor<2x4x8xf32>) -> tensor<16x8xf32>
    (%82) = "pd_op.add_" (%kwarg_embedding_0.w_0.dist@GRAD@MERGE, %81) {chunk_id:-1,grad_merge_add:true,op_role:1,stop_gradient:[false]} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
}
