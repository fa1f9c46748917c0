module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<40xf32>, %arg1: tensor<17x40xf32>, %arg2: tensor<11x3x7xf32>) -> (tensor<11x3x10xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<10xf32>) -> tensor<3x10xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<10xf32>) -> tensor<3x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<11x3x10xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5:7 = stablehlo.while(%iterArg = %arg2, %iterArg_2 = %arg1, %iterArg_3 = %arg0, %iterArg_4 = %c, %iterArg_5 = %2, %iterArg_6 = %3, %iterArg_7 = %4) : tensor<11x3x7xf32>, tensor<17x40xf32>, tensor<40xf32>, tensor<i32>, tensor<3x10xf32>, tensor<3x10xf32>, tensor<11x3x10xf32>
    cond {
      %c_8 = stablehlo.constant dense<11> : tensor<i32>
      %6 = stablehlo.compare LT, %iterArg_4, %c_8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %6 : tensor<i1>
    } do {
      %6 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_4) : (tensor<11x3x7xf32>, tensor<i32>) -> tensor<3x7xf32>
      %7 = stablehlo.concatenate %6, %iterArg_5, dim = 1 : (tensor<3x7xf32>, tensor<3x10xf32>) -> tensor<3x17xf32>
      %8 = stablehlo.dot_general %7, %iterArg_2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x17xf32>, tensor<17x40xf32>) -> tensor<3x40xf32>
      %9 = stablehlo.broadcast_in_dim %iterArg_3, dims = [1] : (tensor<40xf32>) -> tensor<3x40xf32>
      %10 = stablehlo.add %8, %9 : tensor<3x40xf32>
      %11 = stablehlo.slice %10 [0:3, 0:10] : (tensor<3x40xf32>) -> tensor<3x10xf32>
      %12 = stablehlo.slice %10 [0:3, 10:20] : (tensor<3x40xf32>) -> tensor<3x10xf32>
      %13 = stablehlo.slice %10 [0:3, 20:30] : (tensor<3x40xf32>) -> tensor<3x10xf32>
      %14 = stablehlo.slice %10 [0:3, 30:40] : (tensor<3x40xf32>) -> tensor<3x10xf32>
      %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %15 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
      %16 = stablehlo.add %13, %15 : tensor<3x10xf32>
      %17 = stablehlo.negate %16 : tensor<3x10xf32>
      %18 = stablehlo.exponential %17 : tensor<3x10xf32>
      %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %19 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
      %20 = stablehlo.add %19, %18 : tensor<3x10xf32>
      %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %21 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
      %22 = stablehlo.divide %21, %20 : tensor<3x10xf32>
      %23 = stablehlo.multiply %22, %iterArg_6 : tensor<3x10xf32>
      %24 = stablehlo.negate %11 : tensor<3x10xf32>
      %25 = stablehlo.exponential %24 : tensor<3x10xf32>
      %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %26 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
      %27 = stablehlo.add %26, %25 : tensor<3x10xf32>
      %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %28 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
      %29 = stablehlo.divide %28, %27 : tensor<3x10xf32>
      %30 = stablehlo.tanh %12 : tensor<3x10xf32>
      %31 = stablehlo.multiply %29, %30 : tensor<3x10xf32>
      %32 = stablehlo.add %23, %31 : tensor<3x10xf32>
      %33 = stablehlo.negate %14 : tensor<3x10xf32>
      %34 = stablehlo.exponential %33 : tensor<3x10xf32>
      %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %35 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
      %36 = stablehlo.add %35, %34 : tensor<3x10xf32>
      %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %37 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
      %38 = stablehlo.divide %37, %36 : tensor<3x10xf32>
      %39 = stablehlo.tanh %32 : tensor<3x10xf32>
      %40 = stablehlo.multiply %38, %39 : tensor<3x10xf32>
      %41 = func.call @dynamic_update_index_in_dim(%iterArg_7, %40, %iterArg_4) : (tensor<11x3x10xf32>, tensor<3x10xf32>, tensor<i32>) -> tensor<11x3x10xf32>
      %c_15 = stablehlo.constant dense<1> : tensor<i32>
      %42 = stablehlo.add %iterArg_4, %c_15 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %iterArg_3, %42, %40, %32, %41 : tensor<11x3x7xf32>, tensor<17x40xf32>, tensor<40xf32>, tensor<i32>, tensor<3x10xf32>, tensor<3x10xf32>, tensor<11x3x10xf32>
    }
    return %5#6 : tensor<11x3x10xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<11x3x7xf32>, %arg1: tensor<i32>) -> tensor<3x7xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3, 7] : (tensor<11x3x7xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x7xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3x7xf32>) -> tensor<3x7xf32>
    return %1 : tensor<3x7xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<11x3x10xf32>, %arg1: tensor<3x10xf32>, %arg2: tensor<i32>) -> tensor<11x3x10xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x10xf32>) -> tensor<1x3x10xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<11x3x10xf32>, tensor<1x3x10xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<11x3x10xf32>
    return %1 : tensor<11x3x10xf32>
  }
}
