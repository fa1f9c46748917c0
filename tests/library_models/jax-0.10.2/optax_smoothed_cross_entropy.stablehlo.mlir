module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x10xf32>, %arg1: tensor<16x10xf32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.899999976> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x10xf32>
    %1 = stablehlo.multiply %0, %arg1 : tensor<16x10xf32>
    %cst_0 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x10xf32>
    %3 = stablehlo.add %1, %2 : tensor<16x10xf32>
    %4 = call @log_softmax(%arg0) : (tensor<16x10xf32>) -> tensor<16x10xf32>
    %5 = stablehlo.multiply %3, %4 : tensor<16x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x10xf32>, tensor<f32>) -> tensor<16xf32>
    %7 = stablehlo.negate %6 : tensor<16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
    %cst_3 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %9 = stablehlo.divide %8, %cst_3 : tensor<f32>
    return %9 : tensor<f32>
  }
  func.func private @log_softmax(%arg0: tensor<16x10xf32>) -> tensor<16x10xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<16x10xf32>, tensor<f32>) -> tensor<16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<16xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<16x10xf32>
    %6 = stablehlo.exponential %5 : tensor<16x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x10xf32>, tensor<f32>) -> tensor<16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %9 = stablehlo.log %8 : tensor<16x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x10xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<16x10xf32>
    return %11 : tensor<16x10xf32>
  }
}
