{
    (%0) = "pd_op.full" () {dtype:float32,op_dist_attr:{mesh:{shape:[1],process_ids:[1]},result(0):{mesh_shape:[1],process_ids:[1],dims_mappings:[-1,-1], placements:[Replicate()]},chunk_id:-1},persistable:[true],place:Place(undefined:0),shape:[8,16],stop_gradient:[true],value:0} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[1],process_ids:[1],dims_mappings:[-1,-1], placements:[Replicate()]>
    () = "builtin.set_parameter" (%0) {parameter_name:"linear_4.w_0.dist"} : (pd_dist.tensor<8x16xf32, mesh_shape:[1],process_ids:[1],dims_mappings:[-1,-1], placements:[Replicate()]>) -> 
    (%1) = "pd_op.full" () {dtype:float32,op_dist_attr:{mesh:{shape:[1],process_ids:[1]},result(0):{mesh_shape:[1],process_ids:[1],dims_mappings:[-1], placements:[Replicate()]},chunk_id:-1},persistable:[true],place:Place(undefined:0),shape:[16],stop_gradient:[true],value:0} : () -> pd_dist.tensor<16xf32, mesh_shape:[1],process_ids:[1],dims_mappings:[-1], placements:[Replicate()]>
    () = "builtin.set_parameter" (%1) {parameter_name:"linear_4.b_0.dist"} : (pd_dist.tensor<16xf32, mesh_shape:[1],process_ids:[1],dims_mappings:[-1], placements:[Replicate()]>) -> 
    (%2) = "pd_op.full" () {dtype:float32,op_dist_attr:{mesh:{shape:[1],process_ids:[1]},result(0):{mesh_shape:[1],process_ids:[1],dims_mappings:[-1,-1], placements:[Replicate()]},chunk_id:-1},persistable:[true],place:Place(undefined:0),shape:[16,8],stop_gradient:[true],value:0} : () -> pd_dist.tensor<16x8xf32, mesh_shape:[1],process_ids:[1],dims_mappings:[-1,-1], placements:[Replicate()]>
    () = "builtin.set_parameter" (%2) {parameter_name:"linear_5.w_0.dist"} : (pd_dist.tensor<16x8xf32, mesh_shape:[1],process_ids:[1],dims_mappings:[-1,-1], placements:[Replicate()]>) -> 
    (%3) = "pd_op.full" () {dtype:float32,op_dist_attr:{mesh:{shape:[1],process_ids:[1]},result(0):{mesh_shape:[1],process_ids:[1],dims_mappings:[-1], placements:[Replicate()]},chunk_id:-1},persistable:[true],place:Place(undefined:0),shape:[8],stop_gradient:[true],value:0} : () -> pd_dist.tensor<8xf32, mesh_shape:[1],process_ids:[1],dims_mappings:[-1], placements:[Replicate()]>
    () = "builtin.set_parameter" (%3) {parameter_name:"linear_5.b_0.dist"} : (pd_dist.tensor<8xf32, mesh_shape:[1],process_ids:[1],dims_mappings:[-1], placements:[Replicate()]>) -> 
    (%4) = "pd_op.full" () {dtype:float32,op_dist_attr:{mesh:{shape:[1],process_ids:[1]},result(0):{mesh_shape:[1],process_ids:[1],dims_mappings:[-1,-1], placements:[Replicate()]},chunk_id:-1},persistable:[true],place:Place(undefined:0),shape:[8,4],stop_gradient:[true],value:0} : () -> pd_dist.tensor<8x4xf32, mesh_shape:[1],process_ids:[1],dims_mappings:[-1,-1], placements:[Replicate()]>
    () = "builtin.set_parameter" (%4) {parameter_name:"linear_6.w_0.dist"} : (pd_dist.tensor<8x4xf32, mesh_shape:[1],process_ids:[1],dims_mappings:[-1,-1], placements:[Replicate()]>) -> 
    (%5) = "pd_op.full" () {dtype:float32,op_dist_attr:{mesh:{shape:[1],process_ids:[1]},result(0):{mesh_shape:[1],process_ids:[1],dims_mappings:[-1], placements:[Replicate()]},chunk_id:-1},persistable:[true],place:Place(undefined:0),shape:[4],stop_gradient:[true],value:0} : () -> pd_dist.tensor<4xf32, mesh_shape:[1],process_ids:[1],dims_mappings:[-1], placements:[Replicate()]>
    () = "builtin.set_parameter" (%5) {parameter_name:"linear_6.b_0.dist"} : (pd_dist.tensor<4xf32, mesh_shape:[1],process_ids:[1],dims_mappings:[-1], placements:[Replicate()]>) -> 
    (%6) = "pd_op.full" () {dtype:float32,persistable:[true],place:Place(undefined:0),shape:[],stop_gradient:[true],value:0.05} : () -> tensor<f32>
    () = "builtin.shadow_output" (%6) {output_name:"learning_rate_0"} : (tensor<f32>) -> 
    (%7) = "pd_op.full" () {dtype:float32,persistable:[true],place:Place(undefined:0),shape:[4],stop_gradient:[true],value:0} : () -> tensor<4xf32>
    () = "builtin.shadow_output" (%7) {output_name:"linear_6.b_0.dist@GRAD@MERGE"} : (tensor<4xf32>) -> 
    (%8) = "pd_op.full" () {dtype:float32,persistable:[true],place:Place(undefined:0),shape:[8,4],stop_gradient:[true],value:0} : () -> tensor<8x4xf32>
    () = "builtin.shadow_output" (%8) {output_name:"linear_6.w_0.dist@GRAD@MERGE"} : (tensor<8x4xf32>) -> 
    (%9) = "pd_op.full" () {dtype:float32,persistable:[true],place:Place(undefined:0),shape:[8],stop_gradient:[true],value:0} : () -> tensor<8xf32>
    () = "builtin.shadow_output" (%9) {output_name:"linear_5.b_0.dist@GRAD@MERGE"} : (tensor<8xf32>) -> 
    (%10) = "pd_op.full" () {dtype:float32,persistable:[true],place:Place(undefined:0),shape:[16,8],stop_gradient:[true],value:0} : () -> tensor<16x8xf32>
    () = "builtin.shadow_output" (%10) {output_name:"linear_5.w_0.dist@GRAD@MERGE"} : (tensor<16x8xf32>) -> 
    (%11) = "pd_op.full" () {dtype:float32,persistable:[true],place:Place(undefined:0),shape:[16],stop_gradient:[true],value:0} : () -> tensor<16xf32>
    () = "builtin.shadow_output" (%11) {output_name:"linear_4.b_0.dist@GRAD@MERGE"} : (tensor<16xf32>) -> 
    (%12) = "pd_op.full" () {dtype:float32,persistable:[true],place:Place(undefined:0),shape:[8,16],stop_gradient:[true],value:0} : () -> tensor<8x16xf32>
    () = "builtin.shadow_output" (%12) {output_name:"linear_4.w_0.dist@GRAD@MERGE"} : (tensor<8x16xf32>) -> 
}
