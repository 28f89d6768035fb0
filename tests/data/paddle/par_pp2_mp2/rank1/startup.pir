{
    (%0) = "pd_op.full" () {dtype:float32,op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0], placements:[Shard(dim=1)]},chunk_id:-1},persistable:[true],place:Place(undefined:0),shape:[8,16],stop_gradient:[true],value:0} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0], placements:[Shard(dim=1)]>
    () = "builtin.set_parameter" (%0) {parameter_name:"linear_0.w_0.dist"} : (pd_dist.tensor<8x16xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0], placements:[Shard(dim=1)]>) -> 
    (%1) = "pd_op.full" () {dtype:float32,op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0], placements:[Shard(dim=0)]},chunk_id:-1},persistable:[true],place:Place(undefined:0),shape:[16],stop_gradient:[true],value:0} : () -> pd_dist.tensor<16xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0], placements:[Shard(dim=0)]>
    () = "builtin.set_parameter" (%1) {parameter_name:"linear_0.b_0.dist"} : (pd_dist.tensor<16xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0], placements:[Shard(dim=0)]>) -> 
    (%2) = "pd_op.full" () {dtype:float32,op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1], placements:[Shard(dim=0)]},chunk_id:-1},persistable:[true],place:Place(undefined:0),shape:[16,8],stop_gradient:[true],value:0} : () -> pd_dist.tensor<16x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1], placements:[Shard(dim=0)]>
    () = "builtin.set_parameter" (%2) {parameter_name:"linear_1.w_0.dist"} : (pd_dist.tensor<16x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1], placements:[Shard(dim=0)]>) -> 
    (%3) = "pd_op.full" () {dtype:float32,op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1], placements:[Replicate()]},chunk_id:-1},persistable:[true],place:Place(undefined:0),shape:[8],stop_gradient:[true],value:0} : () -> pd_dist.tensor<8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1], placements:[Replicate()]>
    () = "builtin.set_parameter" (%3) {parameter_name:"linear_1.b_0.dist"} : (pd_dist.tensor<8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1], placements:[Replicate()]>) -> 
    (%4) = "pd_op.full" () {dtype:float32,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true],value:0.05} : () -> tensor<f32>
    () = "builtin.shadow_output" (%4) {output_name:"learning_rate_0"} : (tensor<f32>) -> 
    (%5) = "pd_op.full" () {dtype:float32,persistable:[true],place:Place(undefined:0),shape:[8],stop_gradient:[true],value:0} : () -> tensor<8xf32>
    () = "builtin.shadow_output" (%5) {output_name:"linear_1.b_0.dist@GRAD@MERGE"} : (tensor<8xf32>) -> 
    (%6) = "pd_op.full" () {dtype:float32,persistable:[true],place:Place(undefined:0),shape:[8,8],stop_gradient:[true],value:0} : () -> tensor<8x8xf32>
    () = "builtin.shadow_output" (%6) {output_name:"linear_1.w_0.dist@GRAD@MERGE"} : (tensor<8x8xf32>) -> 
    (%7) = "pd_op.full" () {dtype:float32,persistable:[true],place:Place(undefined:0),shape:[8],stop_gradient:[true],value:0} : () -> tensor<8xf32>
    () = "builtin.shadow_output" (%7) {output_name:"linear_0.b_0.dist@GRAD@MERGE"} : (tensor<8xf32>) -> 
    (%8) = "pd_op.full" () {dtype:float32,persistable:[true],place:Place(undefined:0),shape:[8,8],stop_gradient:[true],value:0} : () -> tensor<8x8xf32>
    () = "builtin.shadow_output" (%8) {output_name:"linear_0.w_0.dist@GRAD@MERGE"} : (tensor<8x8xf32>) -> 
}
