module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<16x8xf32>, %arg2: tensor<8xf32>, %arg3: tensor<16x8xf32>, %arg4: tensor<8xf32>, %arg5: tensor<16x8xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]['b']"}, tensor<16x8xf32> {jax.result_info = "result[0]['w']"}, tensor<8xf32> {jax.result_info = "result[1][1][0].trace['b']"}, tensor<16x8xf32> {jax.result_info = "result[1][1][0].trace['w']"}) {
    %0 = chlo.square %arg4 : tensor<8xf32> -> tensor<8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = chlo.square %1 : tensor<8xf32> -> tensor<8xf32>
    %3 = stablehlo.add %0, %2 : tensor<8xf32>
    %4 = chlo.square %arg5 : tensor<16x8xf32> -> tensor<16x8xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %6 = chlo.square %5 : tensor<16x8xf32> -> tensor<16x8xf32>
    %7 = stablehlo.add %4, %6 : tensor<16x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%3 init: %cst_1) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%7 init: %cst_2) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.add %cst_3, %8 : tensor<f32>
    %11 = stablehlo.add %10, %9 : tensor<f32>
    %12 = stablehlo.sqrt %11 : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.compare LT, %12, %cst_4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %15 = stablehlo.divide %arg4, %14 : tensor<8xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %17 = stablehlo.multiply %15, %16 : tensor<8xf32>
    %18 = stablehlo.select %13, %arg4, %17 : tensor<i1>, tensor<8xf32>
    %19 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %20 = stablehlo.divide %arg5, %19 : tensor<16x8xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %22 = stablehlo.multiply %20, %21 : tensor<16x8xf32>
    %23 = stablehlo.select %13, %arg5, %22 : tensor<i1>, tensor<16x8xf32>
    %cst_7 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %25 = stablehlo.multiply %24, %arg2 : tensor<8xf32>
    %26 = stablehlo.add %18, %25 : tensor<8xf32>
    %cst_8 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %28 = stablehlo.multiply %27, %arg3 : tensor<16x8xf32>
    %29 = stablehlo.add %23, %28 : tensor<16x8xf32>
    %cst_9 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %31 = stablehlo.multiply %30, %26 : tensor<8xf32>
    %32 = stablehlo.add %18, %31 : tensor<8xf32>
    %cst_10 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %34 = stablehlo.multiply %33, %29 : tensor<16x8xf32>
    %35 = stablehlo.add %23, %34 : tensor<16x8xf32>
    %cst_11 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %37 = stablehlo.multiply %36, %32 : tensor<8xf32>
    %cst_12 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %39 = stablehlo.multiply %38, %35 : tensor<16x8xf32>
    %40 = stablehlo.add %arg0, %37 : tensor<8xf32>
    %41 = stablehlo.add %arg1, %39 : tensor<16x8xf32>
    return %40, %41, %26, %29 : tensor<8xf32>, tensor<16x8xf32>, tensor<8xf32>, tensor<16x8xf32>
  }
}
