{
    ^kw:
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_var_37_pd_op.matmul_grad_0 {persistable:false,place:Place(cpu)}
        %kwarg_linear_4.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    () = "pd_op.send_v2" (%kwarg_var_37_pd_op.matmul_grad_0) {chunk_id:-1,dynamic_shape:false,events_to_wait:["var_37_pd_op.matmul_grad_0"],execution_stream:"send_recv_stream",op_role:1,peer:1,ring_id:13,scheduling_priority:0,stop_gradient:[],use_calc_stream:true} : (tensor<2x8xf32>) -> 
}
