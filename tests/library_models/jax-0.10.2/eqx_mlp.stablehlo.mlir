module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x16xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32x32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<4x32xf32>, %arg5: tensor<4xf32>, %arg6: tensor<8x16xf32>) -> (tensor<8x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg6, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x16xf32>, tensor<8x16xf32>) -> tensor<32x8xf32>
    %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<32x8xf32>) -> tensor<8x32xf32>
    %2 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %4 = stablehlo.add %1, %3 : tensor<8x32xf32>
    %5 = call @silu(%4) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %6 = stablehlo.dot_general %arg2, %5, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x32xf32>, tensor<8x32xf32>) -> tensor<32x8xf32>
    %7 = stablehlo.transpose %6, dims = [1, 0] : (tensor<32x8xf32>) -> tensor<8x32xf32>
    %8 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %10 = stablehlo.add %7, %9 : tensor<8x32xf32>
    %11 = call @silu(%10) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %12 = stablehlo.dot_general %arg4, %11, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x32xf32>, tensor<8x32xf32>) -> tensor<4x8xf32>
    %13 = stablehlo.transpose %12, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %14 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<8x4xf32>
    %16 = stablehlo.add %13, %15 : tensor<8x4xf32>
    return %16 : tensor<8x4xf32>
  }
  func.func private @silu(%arg0: tensor<8x32xf32>) -> tensor<8x32xf32> {
    %0 = stablehlo.negate %arg0 : tensor<8x32xf32>
    %1 = stablehlo.exponential %0 : tensor<8x32xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %3 = stablehlo.add %2, %1 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %5 = stablehlo.divide %4, %3 : tensor<8x32xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<8x32xf32>
    return %6 : tensor<8x32xf32>
  }
}
