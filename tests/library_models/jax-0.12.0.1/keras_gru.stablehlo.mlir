module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x36xf32>, %arg1: tensor<12x36xf32>, %arg2: tensor<2x36xf32>, %arg3: tensor<2xui32>, %arg4: tensor<3x9x5xf32>) -> (tensor<3x12xf32> {jax.result_info = "result[0]"}, tensor<2xui32> {jax.result_info = "result[1][0]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %1 = stablehlo.slice %arg4 [0:3, 0:1, 0:5] : (tensor<3x9x5xf32>) -> tensor<3x1x5xf32>
    %2 = stablehlo.reshape %1 : (tensor<3x1x5xf32>) -> tensor<3x5xf32>
    %3 = stablehlo.slice %arg2 [0:1, 0:36] : (tensor<2x36xf32>) -> tensor<1x36xf32>
    %4 = stablehlo.reshape %3 : (tensor<1x36xf32>) -> tensor<36xf32>
    %5 = stablehlo.slice %arg2 [1:2, 0:36] : (tensor<2x36xf32>) -> tensor<1x36xf32>
    %6 = stablehlo.reshape %5 : (tensor<1x36xf32>) -> tensor<36xf32>
    %7 = stablehlo.dot_general %arg4, %arg0, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x9x5xf32>, tensor<5x36xf32>) -> tensor<3x9x36xf32>
    %8 = stablehlo.broadcast_in_dim %4, dims = [2] : (tensor<36xf32>) -> tensor<1x1x36xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x36xf32>) -> tensor<3x9x36xf32>
    %10 = stablehlo.add %7, %9 : tensor<3x9x36xf32>
    %11 = stablehlo.transpose %10, dims = [1, 0, 2] : (tensor<3x9x36xf32>) -> tensor<9x3x36xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<9x3x12xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %13:6 = stablehlo.while(%iterArg = %11, %iterArg_1 = %arg1, %iterArg_2 = %6, %iterArg_3 = %c, %iterArg_4 = %0, %iterArg_5 = %12) : tensor<9x3x36xf32>, tensor<12x36xf32>, tensor<36xf32>, tensor<i32>, tensor<3x12xf32>, tensor<9x3x12xf32>
    cond {
      %c_6 = stablehlo.constant dense<9> : tensor<i32>
      %16 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %16 : tensor<i1>
    } do {
      %16 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_3) : (tensor<9x3x36xf32>, tensor<i32>) -> tensor<3x36xf32>
      %17 = stablehlo.dot_general %iterArg_4, %iterArg_1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x36xf32>) -> tensor<3x36xf32>
      %18 = stablehlo.broadcast_in_dim %iterArg_2, dims = [1] : (tensor<36xf32>) -> tensor<1x36xf32>
      %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x36xf32>) -> tensor<3x36xf32>
      %20 = stablehlo.add %17, %19 : tensor<3x36xf32>
      %21 = stablehlo.slice %16 [0:3, 0:12] : (tensor<3x36xf32>) -> tensor<3x12xf32>
      %22 = stablehlo.slice %16 [0:3, 12:24] : (tensor<3x36xf32>) -> tensor<3x12xf32>
      %23 = stablehlo.slice %16 [0:3, 24:36] : (tensor<3x36xf32>) -> tensor<3x12xf32>
      %24 = stablehlo.slice %20 [0:3, 0:12] : (tensor<3x36xf32>) -> tensor<3x12xf32>
      %25 = stablehlo.slice %20 [0:3, 12:24] : (tensor<3x36xf32>) -> tensor<3x12xf32>
      %26 = stablehlo.slice %20 [0:3, 24:36] : (tensor<3x36xf32>) -> tensor<3x12xf32>
      %27 = stablehlo.add %21, %24 : tensor<3x12xf32>
      %28 = stablehlo.negate %27 : tensor<3x12xf32>
      %29 = stablehlo.exponential %28 : tensor<3x12xf32>
      %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %30 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %31 = stablehlo.add %30, %29 : tensor<3x12xf32>
      %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %32 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %33 = stablehlo.divide %32, %31 : tensor<3x12xf32>
      %34 = stablehlo.add %22, %25 : tensor<3x12xf32>
      %35 = stablehlo.negate %34 : tensor<3x12xf32>
      %36 = stablehlo.exponential %35 : tensor<3x12xf32>
      %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %37 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %38 = stablehlo.add %37, %36 : tensor<3x12xf32>
      %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %39 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %40 = stablehlo.divide %39, %38 : tensor<3x12xf32>
      %41 = stablehlo.multiply %40, %26 : tensor<3x12xf32>
      %42 = stablehlo.add %23, %41 : tensor<3x12xf32>
      %43 = stablehlo.tanh %42 : tensor<3x12xf32>
      %44 = stablehlo.multiply %33, %iterArg_4 : tensor<3x12xf32>
      %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %45 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %46 = stablehlo.subtract %45, %33 : tensor<3x12xf32>
      %47 = stablehlo.multiply %46, %43 : tensor<3x12xf32>
      %48 = stablehlo.add %44, %47 : tensor<3x12xf32>
      %49 = func.call @dynamic_update_index_in_dim(%iterArg_5, %48, %iterArg_3) : (tensor<9x3x12xf32>, tensor<3x12xf32>, tensor<i32>) -> tensor<9x3x12xf32>
      %c_11 = stablehlo.constant dense<1> : tensor<i32>
      %50 = stablehlo.add %iterArg_3, %c_11 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_1, %iterArg_2, %50, %48, %49 : tensor<9x3x36xf32>, tensor<12x36xf32>, tensor<36xf32>, tensor<i32>, tensor<3x12xf32>, tensor<9x3x12xf32>
    }
    %14 = stablehlo.transpose %13#5, dims = [1, 0, 2] : (tensor<9x3x12xf32>) -> tensor<3x9x12xf32>
    %15 = stablehlo.broadcast_in_dim %13#4, dims = [0, 2] : (tensor<3x12xf32>) -> tensor<3x1x12xf32>
    return %13#4, %arg3 : tensor<3x12xf32>, tensor<2xui32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<9x3x36xf32>, %arg1: tensor<i32>) -> tensor<3x36xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3, 36] : (tensor<9x3x36xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x36xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3x36xf32>) -> tensor<3x36xf32>
    return %1 : tensor<3x36xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<9x3x12xf32>, %arg1: tensor<3x12xf32>, %arg2: tensor<i32>) -> tensor<9x3x12xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x12xf32>) -> tensor<1x3x12xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<9x3x12xf32>, tensor<1x3x12xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<9x3x12xf32>
    return %1 : tensor<9x3x12xf32>
  }
}
