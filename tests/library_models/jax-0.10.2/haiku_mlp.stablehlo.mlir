module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<12x32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32x32xf32>, %arg4: tensor<5xf32>, %arg5: tensor<32x5xf32>, %arg6: tensor<8x12xf32>) -> (tensor<8x5xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg6, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x12xf32>, tensor<12x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>
    %2 = stablehlo.add %0, %1 : tensor<8x32xf32>
    %3 = stablehlo.multiply %2, %2 : tensor<8x32xf32>
    %4 = stablehlo.multiply %3, %2 : tensor<8x32xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %6 = stablehlo.multiply %5, %4 : tensor<8x32xf32>
    %7 = stablehlo.add %2, %6 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<8x32xf32>
    %10 = stablehlo.tanh %9 : tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %12 = stablehlo.add %11, %10 : tensor<8x32xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %14 = stablehlo.multiply %13, %12 : tensor<8x32xf32>
    %15 = stablehlo.multiply %2, %14 : tensor<8x32xf32>
    %16 = stablehlo.dot_general %15, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
    %17 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>
    %18 = stablehlo.add %16, %17 : tensor<8x32xf32>
    %19 = stablehlo.multiply %18, %18 : tensor<8x32xf32>
    %20 = stablehlo.multiply %19, %18 : tensor<8x32xf32>
    %cst_3 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %22 = stablehlo.multiply %21, %20 : tensor<8x32xf32>
    %23 = stablehlo.add %18, %22 : tensor<8x32xf32>
    %cst_4 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %25 = stablehlo.multiply %24, %23 : tensor<8x32xf32>
    %26 = stablehlo.tanh %25 : tensor<8x32xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %28 = stablehlo.add %27, %26 : tensor<8x32xf32>
    %cst_6 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %30 = stablehlo.multiply %29, %28 : tensor<8x32xf32>
    %31 = stablehlo.multiply %18, %30 : tensor<8x32xf32>
    %32 = stablehlo.dot_general %31, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x5xf32>) -> tensor<8x5xf32>
    %33 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<5xf32>) -> tensor<8x5xf32>
    %34 = stablehlo.add %32, %33 : tensor<8x5xf32>
    return %34 : tensor<8x5xf32>
  }
}
