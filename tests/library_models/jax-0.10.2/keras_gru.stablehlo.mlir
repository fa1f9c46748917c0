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
      %17:2 = func.call @closed_call(%iterArg_1, %iterArg_2, %iterArg_4, %16) : (tensor<12x36xf32>, tensor<36xf32>, tensor<3x12xf32>, tensor<3x36xf32>) -> (tensor<3x12xf32>, tensor<3x12xf32>)
      %18 = func.call @dynamic_update_index_in_dim(%iterArg_5, %17#1, %iterArg_3) : (tensor<9x3x12xf32>, tensor<3x12xf32>, tensor<i32>) -> tensor<9x3x12xf32>
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %19 = stablehlo.add %iterArg_3, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_1, %iterArg_2, %19, %17#0, %18 : tensor<9x3x36xf32>, tensor<12x36xf32>, tensor<36xf32>, tensor<i32>, tensor<3x12xf32>, tensor<9x3x12xf32>
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
  func.func private @closed_call(%arg0: tensor<12x36xf32>, %arg1: tensor<36xf32>, %arg2: tensor<3x12xf32>, %arg3: tensor<3x36xf32>) -> (tensor<3x12xf32>, tensor<3x12xf32>) {
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x36xf32>) -> tensor<3x36xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<36xf32>) -> tensor<1x36xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x36xf32>) -> tensor<3x36xf32>
    %3 = stablehlo.add %0, %2 : tensor<3x36xf32>
    %4 = stablehlo.slice %arg3 [0:3, 0:12] : (tensor<3x36xf32>) -> tensor<3x12xf32>
    %5 = stablehlo.slice %arg3 [0:3, 12:24] : (tensor<3x36xf32>) -> tensor<3x12xf32>
    %6 = stablehlo.slice %arg3 [0:3, 24:36] : (tensor<3x36xf32>) -> tensor<3x12xf32>
    %7 = stablehlo.slice %3 [0:3, 0:12] : (tensor<3x36xf32>) -> tensor<3x12xf32>
    %8 = stablehlo.slice %3 [0:3, 12:24] : (tensor<3x36xf32>) -> tensor<3x12xf32>
    %9 = stablehlo.slice %3 [0:3, 24:36] : (tensor<3x36xf32>) -> tensor<3x12xf32>
    %10 = stablehlo.add %4, %7 : tensor<3x12xf32>
    %11 = stablehlo.negate %10 : tensor<3x12xf32>
    %12 = stablehlo.exponential %11 : tensor<3x12xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %14 = stablehlo.add %13, %12 : tensor<3x12xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %16 = stablehlo.divide %15, %14 : tensor<3x12xf32>
    %17 = stablehlo.add %5, %8 : tensor<3x12xf32>
    %18 = stablehlo.negate %17 : tensor<3x12xf32>
    %19 = stablehlo.exponential %18 : tensor<3x12xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %21 = stablehlo.add %20, %19 : tensor<3x12xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %23 = stablehlo.divide %22, %21 : tensor<3x12xf32>
    %24 = stablehlo.multiply %23, %9 : tensor<3x12xf32>
    %25 = stablehlo.add %6, %24 : tensor<3x12xf32>
    %26 = stablehlo.tanh %25 : tensor<3x12xf32>
    %27 = stablehlo.multiply %16, %arg2 : tensor<3x12xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %29 = stablehlo.subtract %28, %16 : tensor<3x12xf32>
    %30 = stablehlo.multiply %29, %26 : tensor<3x12xf32>
    %31 = stablehlo.add %27, %30 : tensor<3x12xf32>
    return %31, %31 : tensor<3x12xf32>, tensor<3x12xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<9x3x12xf32>, %arg1: tensor<3x12xf32>, %arg2: tensor<i32>) -> tensor<9x3x12xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x12xf32>) -> tensor<1x3x12xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<9x3x12xf32>, tensor<1x3x12xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<9x3x12xf32>
    return %1 : tensor<9x3x12xf32>
  }
}
