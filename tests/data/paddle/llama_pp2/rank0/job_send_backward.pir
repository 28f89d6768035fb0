{
    ^kw:
        %kwarg_llama_rms_norm_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_embedding_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_llama_rms_norm_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_4.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_5.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_6.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
}
