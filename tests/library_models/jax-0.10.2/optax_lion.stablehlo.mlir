module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<16x8xf32>, %arg2: tensor<i32>, %arg3: tensor<8xf32>, %arg4: tensor<16x8xf32>, %arg5: tensor<8xf32>, %arg6: tensor<16x8xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]['b']"}, tensor<16x8xf32> {jax.result_info = "result[0]['w']"}, tensor<i32> {jax.result_info = "result[1][0].count"}, tensor<8xf32> {jax.result_info = "result[1][0].mu['b']"}, tensor<16x8xf32> {jax.result_info = "result[1][0].mu['w']"}) {
    %cst = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.multiply %0, %arg5 : tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %3 = stablehlo.multiply %2, %arg3 : tensor<8xf32>
    %4 = stablehlo.add %1, %3 : tensor<8xf32>
    %5 = stablehlo.sign %4 : tensor<8xf32>
    %cst_1 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %7 = stablehlo.multiply %6, %arg6 : tensor<16x8xf32>
    %cst_2 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %9 = stablehlo.multiply %8, %arg4 : tensor<16x8xf32>
    %10 = stablehlo.add %7, %9 : tensor<16x8xf32>
    %11 = stablehlo.sign %10 : tensor<16x8xf32>
    %cst_3 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %13 = stablehlo.multiply %12, %arg5 : tensor<8xf32>
    %cst_4 = stablehlo.constant dense<9.900000e-01> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %15 = stablehlo.multiply %14, %arg3 : tensor<8xf32>
    %16 = stablehlo.add %13, %15 : tensor<8xf32>
    %cst_5 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %18 = stablehlo.multiply %17, %arg6 : tensor<16x8xf32>
    %cst_6 = stablehlo.constant dense<9.900000e-01> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %20 = stablehlo.multiply %19, %arg4 : tensor<16x8xf32>
    %21 = stablehlo.add %18, %20 : tensor<16x8xf32>
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %22 = stablehlo.compare LT, %arg2, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_7 = stablehlo.constant dense<1> : tensor<i32>
    %23 = stablehlo.add %arg2, %c_7 : tensor<i32>
    %c_8 = stablehlo.constant dense<2147483647> : tensor<i32>
    %24 = call @_where(%22, %23, %c_8) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_9 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %26 = stablehlo.multiply %25, %arg0 : tensor<8xf32>
    %27 = stablehlo.add %5, %26 : tensor<8xf32>
    %cst_10 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %29 = stablehlo.multiply %28, %arg1 : tensor<16x8xf32>
    %30 = stablehlo.add %11, %29 : tensor<16x8xf32>
    %cst_11 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %32 = stablehlo.multiply %31, %27 : tensor<8xf32>
    %cst_12 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %34 = stablehlo.multiply %33, %30 : tensor<16x8xf32>
    %35 = stablehlo.add %arg0, %32 : tensor<8xf32>
    %36 = stablehlo.add %arg1, %34 : tensor<16x8xf32>
    return %35, %36, %24, %16, %21 : tensor<8xf32>, tensor<16x8xf32>, tensor<i32>, tensor<8xf32>, tensor<16x8xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
