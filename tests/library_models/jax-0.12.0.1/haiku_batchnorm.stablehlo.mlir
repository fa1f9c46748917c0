module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x6xf32>, %arg1: tensor<1x6xf32>, %arg2: tensor<1x6xf32>, %arg3: tensor<i32>, %arg4: tensor<1x6xf32>, %arg5: tensor<1x6xf32>, %arg6: tensor<i32>, %arg7: tensor<1x6xf32>, %arg8: tensor<16x6xf32>) -> (tensor<16x6xf32> {jax.result_info = "result[0]"}, tensor<1x6xf32> {jax.result_info = "result[1]['batch_norm/~/mean_ema']['average']"}, tensor<i32> {jax.result_info = "result[1]['batch_norm/~/mean_ema']['counter']"}, tensor<1x6xf32> {jax.result_info = "result[1]['batch_norm/~/mean_ema']['hidden']"}, tensor<1x6xf32> {jax.result_info = "result[1]['batch_norm/~/var_ema']['average']"}, tensor<i32> {jax.result_info = "result[1]['batch_norm/~/var_ema']['counter']"}, tensor<1x6xf32> {jax.result_info = "result[1]['batch_norm/~/var_ema']['hidden']"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg8 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<16x6xf32>, tensor<f32>) -> tensor<6xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<6xf32>) -> tensor<1x6xf32>
    %cst_0 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x6xf32>
    %3 = stablehlo.divide %1, %2 : tensor<1x6xf32>
    %4 = chlo.square %arg8 : tensor<16x6xf32> -> tensor<16x6xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_1) applies stablehlo.add across dimensions = [0] : (tensor<16x6xf32>, tensor<f32>) -> tensor<6xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [1] : (tensor<6xf32>) -> tensor<1x6xf32>
    %cst_2 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x6xf32>
    %8 = stablehlo.divide %6, %7 : tensor<1x6xf32>
    %9 = chlo.square %3 : tensor<1x6xf32> -> tensor<1x6xf32>
    %10 = stablehlo.subtract %8, %9 : tensor<1x6xf32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %11 = stablehlo.add %arg3, %c : tensor<i32>
    %cst_3 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x6xf32>
    %13 = stablehlo.multiply %arg4, %12 : tensor<1x6xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_5 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %14 = stablehlo.subtract %cst_4, %cst_5 : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<f32>) -> tensor<1x6xf32>
    %16 = stablehlo.multiply %3, %15 : tensor<1x6xf32>
    %17 = stablehlo.add %13, %16 : tensor<1x6xf32>
    %18 = stablehlo.convert %11 : (tensor<i32>) -> tensor<f32>
    %cst_6 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %19 = stablehlo.convert %11 : (tensor<i32>) -> tensor<f32>
    %20 = stablehlo.power %cst_6, %19 : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.subtract %cst_7, %20 : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [] : (tensor<f32>) -> tensor<1x6xf32>
    %23 = stablehlo.divide %17, %22 : tensor<1x6xf32>
    %c_8 = stablehlo.constant dense<1> : tensor<i32>
    %24 = stablehlo.add %arg6, %c_8 : tensor<i32>
    %cst_9 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1x6xf32>
    %26 = stablehlo.multiply %arg7, %25 : tensor<1x6xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_11 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %27 = stablehlo.subtract %cst_10, %cst_11 : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [] : (tensor<f32>) -> tensor<1x6xf32>
    %29 = stablehlo.multiply %10, %28 : tensor<1x6xf32>
    %30 = stablehlo.add %26, %29 : tensor<1x6xf32>
    %31 = stablehlo.convert %24 : (tensor<i32>) -> tensor<f32>
    %cst_12 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %32 = stablehlo.convert %24 : (tensor<i32>) -> tensor<f32>
    %33 = stablehlo.power %cst_12, %32 : tensor<f32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %34 = stablehlo.subtract %cst_13, %33 : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [] : (tensor<f32>) -> tensor<1x6xf32>
    %36 = stablehlo.divide %30, %35 : tensor<1x6xf32>
    %cst_14 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<1x6xf32>
    %38 = stablehlo.add %10, %37 : tensor<1x6xf32>
    %39 = stablehlo.rsqrt %38 : tensor<1x6xf32>
    %40 = stablehlo.multiply %arg1, %39 : tensor<1x6xf32>
    %41 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x6xf32>) -> tensor<16x6xf32>
    %42 = stablehlo.subtract %arg8, %41 : tensor<16x6xf32>
    %43 = stablehlo.broadcast_in_dim %40, dims = [0, 1] : (tensor<1x6xf32>) -> tensor<16x6xf32>
    %44 = stablehlo.multiply %42, %43 : tensor<16x6xf32>
    %45 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x6xf32>) -> tensor<16x6xf32>
    %46 = stablehlo.add %44, %45 : tensor<16x6xf32>
    return %46, %23, %11, %17, %36, %24, %30 : tensor<16x6xf32>, tensor<1x6xf32>, tensor<i32>, tensor<1x6xf32>, tensor<1x6xf32>, tensor<i32>, tensor<1x6xf32>
  }
}
