module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3x3x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8xf32>, %arg4: tensor<8xf32>, %arg5: tensor<8xf32>, %arg6: tensor<2x8x8x3xf32>) -> (tensor<2x8xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1][0]"}, tensor<8xf32> {jax.result_info = "result[1][1]"}) {
    %0 = stablehlo.convolution(%arg6, %arg0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x8x8x8xf32>
    %1 = stablehlo.reshape %arg1 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<2x8x8x8xf32>
    %3 = stablehlo.add %0, %2 : tensor<2x8x8x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_0 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %7 = stablehlo.divide %5, %6 : tensor<1x1x1x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %8 = call @_var(%3, %c) : (tensor<2x8x8x8xf32>, tensor<i32>) -> tensor<1x1x1x8xf32>
    %9 = stablehlo.reshape %7 : (tensor<1x1x1x8xf32>) -> tensor<8xf32>
    %10 = stablehlo.reshape %8 : (tensor<1x1x1x8xf32>) -> tensor<8xf32>
    %cst_1 = stablehlo.constant dense<9.900000e-01> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %12 = stablehlo.multiply %arg4, %11 : tensor<8xf32>
    %cst_2 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %14 = stablehlo.multiply %9, %13 : tensor<8xf32>
    %15 = stablehlo.add %12, %14 : tensor<8xf32>
    %cst_3 = stablehlo.constant dense<9.900000e-01> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %17 = stablehlo.multiply %arg5, %16 : tensor<8xf32>
    %cst_4 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %19 = stablehlo.multiply %10, %18 : tensor<8xf32>
    %20 = stablehlo.add %17, %19 : tensor<8xf32>
    %21 = stablehlo.reshape %9 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %22 = stablehlo.reshape %10 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_5 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %24 = stablehlo.add %22, %23 : tensor<1x1x1x8xf32>
    %25 = stablehlo.rsqrt %24 : tensor<1x1x1x8xf32>
    %26 = stablehlo.reshape %arg2 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %27 = stablehlo.multiply %25, %26 : tensor<1x1x1x8xf32>
    %28 = stablehlo.negate %21 : tensor<1x1x1x8xf32>
    %29 = stablehlo.multiply %28, %27 : tensor<1x1x1x8xf32>
    %30 = stablehlo.reshape %arg3 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %31 = stablehlo.add %29, %30 : tensor<1x1x1x8xf32>
    %32 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<2x8x8x8xf32>
    %33 = stablehlo.multiply %3, %32 : tensor<2x8x8x8xf32>
    %34 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<2x8x8x8xf32>
    %35 = stablehlo.add %33, %34 : tensor<2x8x8x8xf32>
    %36 = call @relu(%35) : (tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.reduce(%36 init: %cst_6) applies stablehlo.add across dimensions = [1, 2] : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x8xf32>
    %cst_7 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
    %39 = stablehlo.divide %37, %38 : tensor<2x8xf32>
    return %39, %15, %20 : tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>
  }
  func.func private @_var(%arg0: tensor<2x8x8x8xf32>, %arg1: tensor<i32>) -> tensor<1x1x1x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_0 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %3 = stablehlo.divide %1, %2 : tensor<1x1x1x8xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<2x8x8x8xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x8x8x8xf32>
    %6 = chlo.square %5 : tensor<2x8x8x8xf32> -> tensor<2x8x8x8xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %12 = stablehlo.divide %10, %11 : tensor<1x1x1x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = call @_where(%13, %12, %cst_4) : (tensor<i1>, tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<1x1x1x8xf32>
    return %14 : tensor<1x1x1x8xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<1x1x1x8xf32>, %arg2: tensor<f32>) -> tensor<1x1x1x8xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<1x1x1x8xf32>
    return %2 : tensor<1x1x1x8xf32>
  }
  func.func private @relu(%arg0: tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8x8x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x8x8x8xf32>
    return %1 : tensor<2x8x8x8xf32>
  }
}
