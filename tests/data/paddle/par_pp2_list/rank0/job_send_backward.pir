{
    ^kw:
        %kwarg_linear_0.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_0.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_1.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_2.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.w_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
        %kwarg_linear_3.b_0.dist@GRAD@MERGE {place:Place(cpu),persistable:true}
}
