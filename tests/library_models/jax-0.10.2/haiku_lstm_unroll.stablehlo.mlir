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
      %7:3 = func.call @closed_call(%iterArg_2, %iterArg_3, %iterArg_5, %iterArg_6, %6) : (tensor<17x40xf32>, tensor<40xf32>, tensor<3x10xf32>, tensor<3x10xf32>, tensor<3x7xf32>) -> (tensor<3x10xf32>, tensor<3x10xf32>, tensor<3x10xf32>)
      %8 = func.call @dynamic_update_index_in_dim(%iterArg_7, %7#2, %iterArg_4) : (tensor<11x3x10xf32>, tensor<3x10xf32>, tensor<i32>) -> tensor<11x3x10xf32>
      %c_8 = stablehlo.constant dense<1> : tensor<i32>
      %9 = stablehlo.add %iterArg_4, %c_8 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %iterArg_3, %9, %7#0, %7#1, %8 : tensor<11x3x7xf32>, tensor<17x40xf32>, tensor<40xf32>, tensor<i32>, tensor<3x10xf32>, tensor<3x10xf32>, tensor<11x3x10xf32>
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
  func.func private @closed_call(%arg0: tensor<17x40xf32>, %arg1: tensor<40xf32>, %arg2: tensor<3x10xf32>, %arg3: tensor<3x10xf32>, %arg4: tensor<3x7xf32>) -> (tensor<3x10xf32>, tensor<3x10xf32>, tensor<3x10xf32>) {
    %0 = stablehlo.concatenate %arg4, %arg2, dim = 1 : (tensor<3x7xf32>, tensor<3x10xf32>) -> tensor<3x17xf32>
    %1 = stablehlo.dot_general %0, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x17xf32>, tensor<17x40xf32>) -> tensor<3x40xf32>
    %2 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<40xf32>) -> tensor<3x40xf32>
    %3 = stablehlo.add %1, %2 : tensor<3x40xf32>
    %4 = stablehlo.slice %3 [0:3, 0:10] : (tensor<3x40xf32>) -> tensor<3x10xf32>
    %5 = stablehlo.slice %3 [0:3, 10:20] : (tensor<3x40xf32>) -> tensor<3x10xf32>
    %6 = stablehlo.slice %3 [0:3, 20:30] : (tensor<3x40xf32>) -> tensor<3x10xf32>
    %7 = stablehlo.slice %3 [0:3, 30:40] : (tensor<3x40xf32>) -> tensor<3x10xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
    %9 = stablehlo.add %6, %8 : tensor<3x10xf32>
    %10 = stablehlo.negate %9 : tensor<3x10xf32>
    %11 = stablehlo.exponential %10 : tensor<3x10xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
    %13 = stablehlo.add %12, %11 : tensor<3x10xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
    %15 = stablehlo.divide %14, %13 : tensor<3x10xf32>
    %16 = stablehlo.multiply %15, %arg3 : tensor<3x10xf32>
    %17 = stablehlo.negate %4 : tensor<3x10xf32>
    %18 = stablehlo.exponential %17 : tensor<3x10xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
    %20 = stablehlo.add %19, %18 : tensor<3x10xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
    %22 = stablehlo.divide %21, %20 : tensor<3x10xf32>
    %23 = stablehlo.tanh %5 : tensor<3x10xf32>
    %24 = stablehlo.multiply %22, %23 : tensor<3x10xf32>
    %25 = stablehlo.add %16, %24 : tensor<3x10xf32>
    %26 = stablehlo.negate %7 : tensor<3x10xf32>
    %27 = stablehlo.exponential %26 : tensor<3x10xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
    %29 = stablehlo.add %28, %27 : tensor<3x10xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<3x10xf32>
    %31 = stablehlo.divide %30, %29 : tensor<3x10xf32>
    %32 = stablehlo.tanh %25 : tensor<3x10xf32>
    %33 = stablehlo.multiply %31, %32 : tensor<3x10xf32>
    return %33, %25, %33 : tensor<3x10xf32>, tensor<3x10xf32>, tensor<3x10xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<11x3x10xf32>, %arg1: tensor<3x10xf32>, %arg2: tensor<i32>) -> tensor<11x3x10xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x10xf32>) -> tensor<1x3x10xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<11x3x10xf32>, tensor<1x3x10xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<11x3x10xf32>
    return %1 : tensor<11x3x10xf32>
  }
}
