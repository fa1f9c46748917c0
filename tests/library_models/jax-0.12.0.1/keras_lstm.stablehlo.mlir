module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x64xf32>, %arg1: tensor<16x64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<16x4xf32>, %arg4: tensor<4xf32>, %arg5: tensor<2xui32>, %arg6: tensor<4x10x8xf32>) -> (tensor<4x10x4xf32> {jax.result_info = "result[0]"}, tensor<2xui32> {jax.result_info = "result[1][0]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %2 = stablehlo.slice %arg6 [0:4, 0:1, 0:8] : (tensor<4x10x8xf32>) -> tensor<4x1x8xf32>
    %3 = stablehlo.reshape %2 : (tensor<4x1x8xf32>) -> tensor<4x8xf32>
    %4 = stablehlo.transpose %arg6, dims = [1, 0, 2] : (tensor<4x10x8xf32>) -> tensor<10x4x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<10x4x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %6:8 = stablehlo.while(%iterArg = %4, %iterArg_2 = %arg0, %iterArg_3 = %arg1, %iterArg_4 = %arg2, %iterArg_5 = %c, %iterArg_6 = %0, %iterArg_7 = %1, %iterArg_8 = %5) : tensor<10x4x8xf32>, tensor<8x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<10x4x16xf32>
    cond {
      %c_9 = stablehlo.constant dense<10> : tensor<i32>
      %14 = stablehlo.compare LT, %iterArg_5, %c_9, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %14 : tensor<i1>
    } do {
      %14 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_5) : (tensor<10x4x8xf32>, tensor<i32>) -> tensor<4x8xf32>
      %15 = stablehlo.dot_general %14, %iterArg_2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x64xf32>) -> tensor<4x64xf32>
      %16 = stablehlo.dot_general %iterArg_6, %iterArg_3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x64xf32>) -> tensor<4x64xf32>
      %17 = stablehlo.add %15, %16 : tensor<4x64xf32>
      %18 = stablehlo.broadcast_in_dim %iterArg_4, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
      %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<4x64xf32>
      %20 = stablehlo.add %17, %19 : tensor<4x64xf32>
      %21 = stablehlo.slice %20 [0:4, 0:16] : (tensor<4x64xf32>) -> tensor<4x16xf32>
      %22 = stablehlo.slice %20 [0:4, 16:32] : (tensor<4x64xf32>) -> tensor<4x16xf32>
      %23 = stablehlo.slice %20 [0:4, 32:48] : (tensor<4x64xf32>) -> tensor<4x16xf32>
      %24 = stablehlo.slice %20 [0:4, 48:64] : (tensor<4x64xf32>) -> tensor<4x16xf32>
      %25 = stablehlo.negate %21 : tensor<4x16xf32>
      %26 = stablehlo.exponential %25 : tensor<4x16xf32>
      %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %27 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %28 = stablehlo.add %27, %26 : tensor<4x16xf32>
      %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %29 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %30 = stablehlo.divide %29, %28 : tensor<4x16xf32>
      %31 = stablehlo.negate %22 : tensor<4x16xf32>
      %32 = stablehlo.exponential %31 : tensor<4x16xf32>
      %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %33 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %34 = stablehlo.add %33, %32 : tensor<4x16xf32>
      %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %35 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %36 = stablehlo.divide %35, %34 : tensor<4x16xf32>
      %37 = stablehlo.multiply %36, %iterArg_7 : tensor<4x16xf32>
      %38 = stablehlo.tanh %23 : tensor<4x16xf32>
      %39 = stablehlo.multiply %30, %38 : tensor<4x16xf32>
      %40 = stablehlo.add %37, %39 : tensor<4x16xf32>
      %41 = stablehlo.negate %24 : tensor<4x16xf32>
      %42 = stablehlo.exponential %41 : tensor<4x16xf32>
      %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %43 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %44 = stablehlo.add %43, %42 : tensor<4x16xf32>
      %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %45 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %46 = stablehlo.divide %45, %44 : tensor<4x16xf32>
      %47 = stablehlo.tanh %40 : tensor<4x16xf32>
      %48 = stablehlo.multiply %46, %47 : tensor<4x16xf32>
      %49 = func.call @dynamic_update_index_in_dim(%iterArg_8, %48, %iterArg_5) : (tensor<10x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<10x4x16xf32>
      %c_15 = stablehlo.constant dense<1> : tensor<i32>
      %50 = stablehlo.add %iterArg_5, %c_15 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %iterArg_3, %iterArg_4, %50, %48, %40, %49 : tensor<10x4x8xf32>, tensor<8x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<10x4x16xf32>
    }
    %7 = stablehlo.slice %6#7 [9:10, 0:4, 0:16] : (tensor<10x4x16xf32>) -> tensor<1x4x16xf32>
    %8 = stablehlo.reshape %7 : (tensor<1x4x16xf32>) -> tensor<4x16xf32>
    %9 = stablehlo.transpose %6#7, dims = [1, 0, 2] : (tensor<10x4x16xf32>) -> tensor<4x10x16xf32>
    %10 = stablehlo.dot_general %9, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x10x16xf32>, tensor<16x4xf32>) -> tensor<4x10x4xf32>
    %11 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<4xf32>) -> tensor<1x1x4xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<1x1x4xf32>) -> tensor<4x10x4xf32>
    %13 = stablehlo.add %10, %12 : tensor<4x10x4xf32>
    return %13, %arg5 : tensor<4x10x4xf32>, tensor<2xui32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<10x4x8xf32>, %arg1: tensor<i32>) -> tensor<4x8xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 4, 8] : (tensor<10x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<10x4x16xf32>, %arg1: tensor<4x16xf32>, %arg2: tensor<i32>) -> tensor<10x4x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<10x4x16xf32>, tensor<1x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<10x4x16xf32>
    return %1 : tensor<10x4x16xf32>
  }
}
