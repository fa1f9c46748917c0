module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<30x6xf32>, %arg1: tensor<30x10xf32>, %arg2: tensor<30xf32>, %arg3: tensor<10xf32>, %arg4: tensor<14x6xf32>) -> (tensor<14x10xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<10xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<14x10xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:8 = stablehlo.while(%iterArg = %arg4, %iterArg_1 = %arg0, %iterArg_2 = %arg2, %iterArg_3 = %arg1, %iterArg_4 = %arg3, %iterArg_5 = %c, %iterArg_6 = %cst, %iterArg_7 = %0) : tensor<14x6xf32>, tensor<30x6xf32>, tensor<30xf32>, tensor<30x10xf32>, tensor<10xf32>, tensor<i32>, tensor<10xf32>, tensor<14x10xf32>
    cond {
      %c_8 = stablehlo.constant dense<14> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg_5, %c_8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_5) : (tensor<14x6xf32>, tensor<i32>) -> tensor<6xf32>
      %3:2 = func.call @closed_call(%iterArg_1, %iterArg_2, %iterArg_3, %iterArg_4, %iterArg_6, %2) : (tensor<30x6xf32>, tensor<30xf32>, tensor<30x10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<6xf32>) -> (tensor<10xf32>, tensor<10xf32>)
      %4 = func.call @dynamic_update_index_in_dim(%iterArg_7, %3#1, %iterArg_5) : (tensor<14x10xf32>, tensor<10xf32>, tensor<i32>) -> tensor<14x10xf32>
      %c_8 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %iterArg_5, %c_8 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_1, %iterArg_2, %iterArg_3, %iterArg_4, %5, %3#0, %4 : tensor<14x6xf32>, tensor<30x6xf32>, tensor<30xf32>, tensor<30x10xf32>, tensor<10xf32>, tensor<i32>, tensor<10xf32>, tensor<14x10xf32>
    }
    return %1#7 : tensor<14x10xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<14x6xf32>, %arg1: tensor<i32>) -> tensor<6xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 6] : (tensor<14x6xf32>, tensor<i32>, tensor<i32>) -> tensor<1x6xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x6xf32>) -> tensor<6xf32>
    return %1 : tensor<6xf32>
  }
  func.func private @closed_call(%arg0: tensor<30x6xf32>, %arg1: tensor<30xf32>, %arg2: tensor<30x10xf32>, %arg3: tensor<10xf32>, %arg4: tensor<10xf32>, %arg5: tensor<6xf32>) -> (tensor<10xf32>, tensor<10xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<30x6xf32>, tensor<6xf32>) -> tensor<30xf32>
    %1 = stablehlo.add %0, %arg1 : tensor<30xf32>
    %2 = stablehlo.slice %1 [0:10] : (tensor<30xf32>) -> tensor<10xf32>
    %3 = stablehlo.slice %1 [10:20] : (tensor<30xf32>) -> tensor<10xf32>
    %4 = stablehlo.slice %1 [20:30] : (tensor<30xf32>) -> tensor<10xf32>
    %5 = stablehlo.dot_general %arg2, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<30x10xf32>, tensor<10xf32>) -> tensor<30xf32>
    %6 = stablehlo.slice %5 [0:10] : (tensor<30xf32>) -> tensor<10xf32>
    %7 = stablehlo.slice %5 [10:20] : (tensor<30xf32>) -> tensor<10xf32>
    %8 = stablehlo.slice %5 [20:30] : (tensor<30xf32>) -> tensor<10xf32>
    %9 = stablehlo.add %2, %6 : tensor<10xf32>
    %10 = stablehlo.negate %9 : tensor<10xf32>
    %11 = stablehlo.exponential %10 : tensor<10xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %13 = stablehlo.add %12, %11 : tensor<10xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %15 = stablehlo.divide %14, %13 : tensor<10xf32>
    %16 = stablehlo.add %3, %7 : tensor<10xf32>
    %17 = stablehlo.negate %16 : tensor<10xf32>
    %18 = stablehlo.exponential %17 : tensor<10xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %20 = stablehlo.add %19, %18 : tensor<10xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %22 = stablehlo.divide %21, %20 : tensor<10xf32>
    %23 = stablehlo.add %8, %arg3 : tensor<10xf32>
    %24 = stablehlo.multiply %15, %23 : tensor<10xf32>
    %25 = stablehlo.add %4, %24 : tensor<10xf32>
    %26 = stablehlo.tanh %25 : tensor<10xf32>
    %27 = stablehlo.subtract %arg4, %26 : tensor<10xf32>
    %28 = stablehlo.multiply %22, %27 : tensor<10xf32>
    %29 = stablehlo.add %26, %28 : tensor<10xf32>
    return %29, %29 : tensor<10xf32>, tensor<10xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<14x10xf32>, %arg1: tensor<10xf32>, %arg2: tensor<i32>) -> tensor<14x10xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<14x10xf32>, tensor<1x10xf32>, tensor<i32>, tensor<i32>) -> tensor<14x10xf32>
    return %1 : tensor<14x10xf32>
  }
}
