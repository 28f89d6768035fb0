{
    ^kw:
        %kwarg_linear_6.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_7.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_8.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
    (%0) = "pd_op.recv_v2" () {chunk_id:-1,dtype:float32,dynamic_shape:false,event_to_record:"var_11_pd_op.recv_v2_0",execution_stream:"send_recv_stream",force_record_event:true,op_role:0,out_shape:[2,8],peer:0,ring_id:17,scheduling_priority:0,stop_gradient:[true],use_calc_stream:true} : () -> tensor<2x8xf32>
    () = "builtin.shadow_output" (%0) {output_name:"var_11_pd_op.recv_v2_0"} : (tensor<2x8xf32>) -> 
}
