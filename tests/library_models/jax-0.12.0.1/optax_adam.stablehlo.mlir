module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<16x8xf32>, %arg2: tensor<i32>, %arg3: tensor<8xf32>, %arg4: tensor<16x8xf32>, %arg5: tensor<8xf32>, %arg6: tensor<16x8xf32>, %arg7: tensor<8xf32>, %arg8: tensor<16x8xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]['b']"}, tensor<16x8xf32> {jax.result_info = "result[0]['w']"}, tensor<i32> {jax.result_info = "result[1][0].count"}, tensor<8xf32> {jax.result_info = "result[1][0].mu['b']"}, tensor<16x8xf32> {jax.result_info = "result[1][0].mu['w']"}, tensor<8xf32> {jax.result_info = "result[1][0].nu['b']"}, tensor<16x8xf32> {jax.result_info = "result[1][0].nu['w']"}) {
    %cst = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.multiply %0, %arg7 : tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %3 = stablehlo.multiply %2, %arg3 : tensor<8xf32>
    %4 = stablehlo.add %1, %3 : tensor<8xf32>
    %cst_1 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %6 = stablehlo.multiply %5, %arg8 : tensor<16x8xf32>
    %cst_2 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %8 = stablehlo.multiply %7, %arg4 : tensor<16x8xf32>
    %9 = stablehlo.add %6, %8 : tensor<16x8xf32>
    %10 = stablehlo.multiply %arg7, %arg7 : tensor<8xf32>
    %cst_3 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %12 = stablehlo.multiply %11, %10 : tensor<8xf32>
    %cst_4 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %14 = stablehlo.multiply %13, %arg5 : tensor<8xf32>
    %15 = stablehlo.add %12, %14 : tensor<8xf32>
    %16 = stablehlo.multiply %arg8, %arg8 : tensor<16x8xf32>
    %cst_5 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %18 = stablehlo.multiply %17, %16 : tensor<16x8xf32>
    %cst_6 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %20 = stablehlo.multiply %19, %arg6 : tensor<16x8xf32>
    %21 = stablehlo.add %18, %20 : tensor<16x8xf32>
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %22 = stablehlo.compare LT, %arg2, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_7 = stablehlo.constant dense<1> : tensor<i32>
    %23 = stablehlo.add %arg2, %c_7 : tensor<i32>
    %c_8 = stablehlo.constant dense<2147483647> : tensor<i32>
    %24 = call @_where(%22, %23, %c_8) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_9 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %25 = stablehlo.convert %24 : (tensor<i32>) -> tensor<f32>
    %26 = stablehlo.convert %24 : (tensor<i32>) -> tensor<f32>
    %27 = stablehlo.power %cst_9, %26 : tensor<f32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %28 = stablehlo.subtract %cst_10, %27 : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %30 = stablehlo.divide %4, %29 : tensor<8xf32>
    %31 = stablehlo.broadcast_in_dim %28, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %32 = stablehlo.divide %9, %31 : tensor<16x8xf32>
    %cst_11 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %33 = stablehlo.convert %24 : (tensor<i32>) -> tensor<f32>
    %34 = stablehlo.convert %24 : (tensor<i32>) -> tensor<f32>
    %35 = stablehlo.power %cst_11, %34 : tensor<f32>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %36 = stablehlo.subtract %cst_12, %35 : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %38 = stablehlo.divide %15, %37 : tensor<8xf32>
    %39 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %40 = stablehlo.divide %21, %39 : tensor<16x8xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %42 = stablehlo.add %38, %41 : tensor<8xf32>
    %43 = stablehlo.sqrt %42 : tensor<8xf32>
    %cst_14 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %45 = stablehlo.add %43, %44 : tensor<8xf32>
    %46 = stablehlo.divide %30, %45 : tensor<8xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %48 = stablehlo.add %40, %47 : tensor<16x8xf32>
    %49 = stablehlo.sqrt %48 : tensor<16x8xf32>
    %cst_16 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %51 = stablehlo.add %49, %50 : tensor<16x8xf32>
    %52 = stablehlo.divide %32, %51 : tensor<16x8xf32>
    %cst_17 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %54 = stablehlo.multiply %53, %46 : tensor<8xf32>
    %cst_18 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %56 = stablehlo.multiply %55, %52 : tensor<16x8xf32>
    %57 = stablehlo.add %arg0, %54 : tensor<8xf32>
    %58 = stablehlo.add %arg1, %56 : tensor<16x8xf32>
    return %57, %58, %24, %4, %9, %15, %21 : tensor<8xf32>, tensor<16x8xf32>, tensor<i32>, tensor<8xf32>, tensor<16x8xf32>, tensor<8xf32>, tensor<16x8xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
