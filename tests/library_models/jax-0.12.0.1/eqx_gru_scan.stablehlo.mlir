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
      %3 = stablehlo.dot_general %iterArg_1, %2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<30x6xf32>, tensor<6xf32>) -> tensor<30xf32>
      %4 = stablehlo.add %3, %iterArg_2 : tensor<30xf32>
      %5 = stablehlo.slice %4 [0:10] : (tensor<30xf32>) -> tensor<10xf32>
      %6 = stablehlo.slice %4 [10:20] : (tensor<30xf32>) -> tensor<10xf32>
      %7 = stablehlo.slice %4 [20:30] : (tensor<30xf32>) -> tensor<10xf32>
      %8 = stablehlo.dot_general %iterArg_3, %iterArg_6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<30x10xf32>, tensor<10xf32>) -> tensor<30xf32>
      %9 = stablehlo.slice %8 [0:10] : (tensor<30xf32>) -> tensor<10xf32>
      %10 = stablehlo.slice %8 [10:20] : (tensor<30xf32>) -> tensor<10xf32>
      %11 = stablehlo.slice %8 [20:30] : (tensor<30xf32>) -> tensor<10xf32>
      %12 = stablehlo.add %5, %9 : tensor<10xf32>
      %13 = stablehlo.negate %12 : tensor<10xf32>
      %14 = stablehlo.exponential %13 : tensor<10xf32>
      %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %15 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<10xf32>
      %16 = stablehlo.add %15, %14 : tensor<10xf32>
      %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %17 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<10xf32>
      %18 = stablehlo.divide %17, %16 : tensor<10xf32>
      %19 = stablehlo.add %6, %10 : tensor<10xf32>
      %20 = stablehlo.negate %19 : tensor<10xf32>
      %21 = stablehlo.exponential %20 : tensor<10xf32>
      %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %22 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<10xf32>
      %23 = stablehlo.add %22, %21 : tensor<10xf32>
      %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %24 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<10xf32>
      %25 = stablehlo.divide %24, %23 : tensor<10xf32>
      %26 = stablehlo.add %11, %iterArg_4 : tensor<10xf32>
      %27 = stablehlo.multiply %18, %26 : tensor<10xf32>
      %28 = stablehlo.add %7, %27 : tensor<10xf32>
      %29 = stablehlo.tanh %28 : tensor<10xf32>
      %30 = stablehlo.subtract %iterArg_6, %29 : tensor<10xf32>
      %31 = stablehlo.multiply %25, %30 : tensor<10xf32>
      %32 = stablehlo.add %29, %31 : tensor<10xf32>
      %33 = func.call @dynamic_update_index_in_dim(%iterArg_7, %32, %iterArg_5) : (tensor<14x10xf32>, tensor<10xf32>, tensor<i32>) -> tensor<14x10xf32>
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %34 = stablehlo.add %iterArg_5, %c_12 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_1, %iterArg_2, %iterArg_3, %iterArg_4, %34, %32, %33 : tensor<14x6xf32>, tensor<30x6xf32>, tensor<30xf32>, tensor<30x10xf32>, tensor<10xf32>, tensor<i32>, tensor<10xf32>, tensor<14x10xf32>
    }
    return %1#7 : tensor<14x10xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<14x6xf32>, %arg1: tensor<i32>) -> tensor<6xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 6] : (tensor<14x6xf32>, tensor<i32>, tensor<i32>) -> tensor<1x6xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x6xf32>) -> tensor<6xf32>
    return %1 : tensor<6xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<14x10xf32>, %arg1: tensor<10xf32>, %arg2: tensor<i32>) -> tensor<14x10xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<14x10xf32>, tensor<1x10xf32>, tensor<i32>, tensor<i32>) -> tensor<14x10xf32>
    return %1 : tensor<14x10xf32>
  }
}
