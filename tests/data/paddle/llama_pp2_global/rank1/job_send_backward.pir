{
    ^kw:
        %kwarg_var_142_pd_op.add_n_0 {persistable:false,place:Place(cpu)}
        %kwarg_llama_rms_norm_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_10.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_9.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_12.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_11.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_13.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_14.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    () = "pd_op.send_v2" (%kwarg_var_142_pd_op.add_n_0) {chunk_id:-1,dynamic_shape:false,events_to_wait:["var_142_pd_op.add_n_0"],execution_stream:"send_recv_stream",op_role:1,peer:1,ring_id:13,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x4x8xf32>) -> 
}
