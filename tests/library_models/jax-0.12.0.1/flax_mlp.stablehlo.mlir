module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64xf32>, %arg1: tensor<32x64xf32>, %arg2: tensor<10xf32>, %arg3: tensor<64x10xf32>, %arg4: tensor<64xf32>, %arg5: tensor<64xf32>, %arg6: tensor<8x32xf32>) -> (tensor<8x10xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg6, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<64xf32>) -> tensor<1x64xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<8x64xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x64xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<8x64xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<8x64xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %7 = stablehlo.multiply %6, %5 : tensor<8x64xf32>
    %8 = stablehlo.add %3, %7 : tensor<8x64xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %10 = stablehlo.multiply %9, %8 : tensor<8x64xf32>
    %11 = stablehlo.tanh %10 : tensor<8x64xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %13 = stablehlo.add %12, %11 : tensor<8x64xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %15 = stablehlo.multiply %14, %13 : tensor<8x64xf32>
    %16 = stablehlo.multiply %3, %15 : tensor<8x64xf32>
    %17 = chlo.square %16 : tensor<8x64xf32> -> tensor<8x64xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.reduce(%16 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_4 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %20 = stablehlo.divide %18, %19 : tensor<8xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.reduce(%17 init: %cst_5) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_6 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %23 = stablehlo.divide %21, %22 : tensor<8xf32>
    %24 = chlo.square %20 : tensor<8xf32> -> tensor<8xf32>
    %25 = stablehlo.subtract %23, %24 : tensor<8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %27 = stablehlo.maximum %26, %25 : tensor<8xf32>
    %28 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %29 = stablehlo.broadcast_in_dim %27, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %30 = stablehlo.broadcast_in_dim %28, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x64xf32>
    %31 = stablehlo.subtract %16, %30 : tensor<8x64xf32>
    %cst_8 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %33 = stablehlo.add %29, %32 : tensor<8x1xf32>
    %34 = stablehlo.rsqrt %33 : tensor<8x1xf32>
    %35 = stablehlo.reshape %arg5 : (tensor<64xf32>) -> tensor<1x64xf32>
    %36 = stablehlo.broadcast_in_dim %34, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x64xf32>
    %37 = stablehlo.broadcast_in_dim %35, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<8x64xf32>
    %38 = stablehlo.multiply %36, %37 : tensor<8x64xf32>
    %39 = stablehlo.multiply %31, %38 : tensor<8x64xf32>
    %40 = stablehlo.reshape %arg4 : (tensor<64xf32>) -> tensor<1x64xf32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<8x64xf32>
    %42 = stablehlo.add %39, %41 : tensor<8x64xf32>
    %43 = stablehlo.dot_general %42, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x10xf32>) -> tensor<8x10xf32>
    %44 = stablehlo.reshape %arg2 : (tensor<10xf32>) -> tensor<1x10xf32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<8x10xf32>
    %46 = stablehlo.add %43, %45 : tensor<8x10xf32>
    return %46 : tensor<8x10xf32>
  }
}
