{
    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "pd_op.relu" (%1) {} : (tensor<4xf32>) -> tensor<4xf32>
    () = "builtin.shadow_output" (%2) {output_name:"y"} : (tensor<4xf32>) -> 
}
