module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>, %arg1: tensor<16x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16x16xf32>, %arg4: tensor<16xf32>, %arg5: tensor<16x16xf32>, %arg6: tensor<16xf32>, %arg7: tensor<16x16xf32>, %arg8: tensor<8x16xf32>, %arg9: tensor<8x16xf32>, %arg10: tensor<8x16xf32>, %arg11: tensor<8x16xf32>, %arg12: tensor<4x12x8xf32>) -> (tensor<4x12x16xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<32> : tensor<i32>
    %0 = stablehlo.shift_right_logical %c, %c_0 : tensor<i32>
    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %c_1 = stablehlo.constant dense<-1> : tensor<i32>
    %3 = stablehlo.and %c, %c_1 : tensor<i32>
    %4 = stablehlo.convert %3 : (tensor<i32>) -> tensor<ui32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %6 = stablehlo.concatenate %2, %5, dim = 0 : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %7 = call @_threefry_split(%6) : (tensor<2xui32>) -> tensor<2x2xui32>
    %8 = stablehlo.slice %7 [0:1, 0:2] : (tensor<2x2xui32>) -> tensor<1x2xui32>
    %9 = stablehlo.reshape %8 : (tensor<1x2xui32>) -> tensor<2xui32>
    %10 = stablehlo.slice %7 [1:2, 0:2] : (tensor<2x2xui32>) -> tensor<1x2xui32>
    %11 = stablehlo.reshape %10 : (tensor<1x2xui32>) -> tensor<2xui32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %14 = stablehlo.transpose %arg12, dims = [1, 0, 2] : (tensor<4x12x8xf32>) -> tensor<12x4x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<12x4x16xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %16:17 = stablehlo.while(%iterArg = %14, %iterArg_5 = %arg5, %iterArg_6 = %arg1, %iterArg_7 = %arg3, %iterArg_8 = %arg7, %iterArg_9 = %arg4, %iterArg_10 = %arg0, %iterArg_11 = %arg2, %iterArg_12 = %arg6, %iterArg_13 = %arg10, %iterArg_14 = %arg8, %iterArg_15 = %arg9, %iterArg_16 = %arg11, %iterArg_17 = %c_4, %iterArg_18 = %12, %iterArg_19 = %13, %iterArg_20 = %15) : tensor<12x4x8xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<12x4x16xf32>
    cond {
      %c_21 = stablehlo.constant dense<12> : tensor<i32>
      %18 = stablehlo.compare LT, %iterArg_17, %c_21, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %18 : tensor<i1>
    } do {
      %18 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_17) : (tensor<12x4x8xf32>, tensor<i32>) -> tensor<4x8xf32>
      %19 = stablehlo.concatenate %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, dim = 1 : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x64xf32>
      %20 = stablehlo.concatenate %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12, dim = 0 : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<64xf32>
      %21 = stablehlo.dot_general %iterArg_19, %19, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x64xf32>) -> tensor<4x64xf32>
      %22 = stablehlo.reshape %20 : (tensor<64xf32>) -> tensor<1x64xf32>
      %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<4x64xf32>
      %24 = stablehlo.add %21, %23 : tensor<4x64xf32>
      %25 = stablehlo.slice %24 [0:4, 0:16] : (tensor<4x64xf32>) -> tensor<4x16xf32>
      %26 = stablehlo.slice %24 [0:4, 16:32] : (tensor<4x64xf32>) -> tensor<4x16xf32>
      %27 = stablehlo.slice %24 [0:4, 32:48] : (tensor<4x64xf32>) -> tensor<4x16xf32>
      %28 = stablehlo.slice %24 [0:4, 48:64] : (tensor<4x64xf32>) -> tensor<4x16xf32>
      %29 = stablehlo.concatenate %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, dim = 1 : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x64xf32>
      %30 = stablehlo.dot_general %18, %29, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x64xf32>) -> tensor<4x64xf32>
      %31 = stablehlo.slice %30 [0:4, 0:16] : (tensor<4x64xf32>) -> tensor<4x16xf32>
      %32 = stablehlo.slice %30 [0:4, 16:32] : (tensor<4x64xf32>) -> tensor<4x16xf32>
      %33 = stablehlo.slice %30 [0:4, 32:48] : (tensor<4x64xf32>) -> tensor<4x16xf32>
      %34 = stablehlo.slice %30 [0:4, 48:64] : (tensor<4x64xf32>) -> tensor<4x16xf32>
      %35 = stablehlo.add %25, %31 : tensor<4x16xf32>
      %36 = stablehlo.negate %35 : tensor<4x16xf32>
      %37 = stablehlo.exponential %36 : tensor<4x16xf32>
      %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %38 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %39 = stablehlo.add %38, %37 : tensor<4x16xf32>
      %cst_22 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %40 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %41 = stablehlo.divide %40, %39 : tensor<4x16xf32>
      %42 = stablehlo.add %26, %32 : tensor<4x16xf32>
      %43 = stablehlo.negate %42 : tensor<4x16xf32>
      %44 = stablehlo.exponential %43 : tensor<4x16xf32>
      %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %45 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %46 = stablehlo.add %45, %44 : tensor<4x16xf32>
      %cst_24 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %47 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %48 = stablehlo.divide %47, %46 : tensor<4x16xf32>
      %49 = stablehlo.add %27, %33 : tensor<4x16xf32>
      %50 = stablehlo.tanh %49 : tensor<4x16xf32>
      %51 = stablehlo.add %28, %34 : tensor<4x16xf32>
      %52 = stablehlo.negate %51 : tensor<4x16xf32>
      %53 = stablehlo.exponential %52 : tensor<4x16xf32>
      %cst_25 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %54 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %55 = stablehlo.add %54, %53 : tensor<4x16xf32>
      %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %56 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %57 = stablehlo.divide %56, %55 : tensor<4x16xf32>
      %58 = stablehlo.multiply %48, %iterArg_18 : tensor<4x16xf32>
      %59 = stablehlo.multiply %41, %50 : tensor<4x16xf32>
      %60 = stablehlo.add %58, %59 : tensor<4x16xf32>
      %61 = stablehlo.tanh %60 : tensor<4x16xf32>
      %62 = stablehlo.multiply %57, %61 : tensor<4x16xf32>
      %63 = func.call @dynamic_update_index_in_dim(%iterArg_20, %62, %iterArg_17) : (tensor<12x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<12x4x16xf32>
      %c_27 = stablehlo.constant dense<1> : tensor<i32>
      %64 = stablehlo.add %iterArg_17, %c_27 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %64, %60, %62, %63 : tensor<12x4x8xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<12x4x16xf32>
    }
    %17 = stablehlo.transpose %16#16, dims = [1, 0, 2] : (tensor<12x4x16xf32>) -> tensor<4x12x16xf32>
    return %17 : tensor<4x12x16xf32>
  }
  func.func private @_threefry_split(%arg0: tensor<2xui32>) -> tensor<2x2xui32> {
    %0 = stablehlo.slice %arg0 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %1 = stablehlo.reshape %0 : (tensor<1xui32>) -> tensor<ui32>
    %2 = stablehlo.slice %arg0 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %3 = stablehlo.reshape %2 : (tensor<1xui32>) -> tensor<ui32>
    %4 = stablehlo.iota dim = 0 : tensor<2xui64>
    %c = stablehlo.constant dense<1> : tensor<ui64>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<2xui64>
    %6 = stablehlo.multiply %5, %4 : tensor<2xui64>
    %c_0 = stablehlo.constant dense<32> : tensor<ui64>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<2xui64>
    %8 = stablehlo.shift_right_logical %6, %7 : tensor<2xui64>
    %9 = stablehlo.convert %6 : (tensor<2xui64>) -> tensor<2xui32>
    %10 = stablehlo.convert %8 : (tensor<2xui64>) -> tensor<2xui32>
    %11:2 = call @threefry2x32(%1, %3, %10, %9) : (tensor<ui32>, tensor<ui32>, tensor<2xui32>, tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>)
    %12 = stablehlo.broadcast_in_dim %11#0, dims = [0] : (tensor<2xui32>) -> tensor<2x1xui32>
    %13 = stablehlo.broadcast_in_dim %11#1, dims = [0] : (tensor<2xui32>) -> tensor<2x1xui32>
    %14 = stablehlo.concatenate %12, %13, dim = 1 : (tensor<2x1xui32>, tensor<2x1xui32>) -> tensor<2x2xui32>
    return %14 : tensor<2x2xui32>
  }
  func.func private @threefry2x32(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<2xui32>, %arg3: tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.xor %0, %c_1 : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %3 = stablehlo.add %arg2, %2 : tensor<2xui32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<2xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %5, %iterArg_7 = %arg1, %iterArg_8 = %1, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %7 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %7 = stablehlo.add %iterArg_4, %c_12 : tensor<i32>
      %8 = stablehlo.slice %iterArg_10 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
      %9 = stablehlo.reshape %8 : (tensor<1xui32>) -> tensor<ui32>
      %10 = stablehlo.slice %iterArg_10 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
      %11 = stablehlo.reshape %10 : (tensor<1xui32>) -> tensor<ui32>
      %12 = stablehlo.slice %iterArg_10 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
      %13 = stablehlo.reshape %12 : (tensor<1xui32>) -> tensor<ui32>
      %14 = stablehlo.slice %iterArg_10 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
      %15 = stablehlo.reshape %14 : (tensor<1xui32>) -> tensor<ui32>
      %16 = stablehlo.add %iterArg_5, %iterArg_6 : tensor<2xui32>
      %17 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %18 = stablehlo.shift_left %iterArg_6, %17 : tensor<2xui32>
      %c_13 = stablehlo.constant dense<32> : tensor<ui32>
      %19 = stablehlo.subtract %c_13, %9 : tensor<ui32>
      %20 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %21 = stablehlo.shift_right_logical %iterArg_6, %20 : tensor<2xui32>
      %22 = stablehlo.or %18, %21 : tensor<2xui32>
      %23 = stablehlo.xor %16, %22 : tensor<2xui32>
      %24 = stablehlo.add %16, %23 : tensor<2xui32>
      %25 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %26 = stablehlo.shift_left %23, %25 : tensor<2xui32>
      %c_14 = stablehlo.constant dense<32> : tensor<ui32>
      %27 = stablehlo.subtract %c_14, %11 : tensor<ui32>
      %28 = stablehlo.broadcast_in_dim %27, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %29 = stablehlo.shift_right_logical %23, %28 : tensor<2xui32>
      %30 = stablehlo.or %26, %29 : tensor<2xui32>
      %31 = stablehlo.xor %24, %30 : tensor<2xui32>
      %32 = stablehlo.add %24, %31 : tensor<2xui32>
      %33 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %34 = stablehlo.shift_left %31, %33 : tensor<2xui32>
      %c_15 = stablehlo.constant dense<32> : tensor<ui32>
      %35 = stablehlo.subtract %c_15, %13 : tensor<ui32>
      %36 = stablehlo.broadcast_in_dim %35, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %37 = stablehlo.shift_right_logical %31, %36 : tensor<2xui32>
      %38 = stablehlo.or %34, %37 : tensor<2xui32>
      %39 = stablehlo.xor %32, %38 : tensor<2xui32>
      %40 = stablehlo.add %32, %39 : tensor<2xui32>
      %41 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %42 = stablehlo.shift_left %39, %41 : tensor<2xui32>
      %c_16 = stablehlo.constant dense<32> : tensor<ui32>
      %43 = stablehlo.subtract %c_16, %15 : tensor<ui32>
      %44 = stablehlo.broadcast_in_dim %43, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %45 = stablehlo.shift_right_logical %39, %44 : tensor<2xui32>
      %46 = stablehlo.or %42, %45 : tensor<2xui32>
      %47 = stablehlo.xor %40, %46 : tensor<2xui32>
      %48 = stablehlo.broadcast_in_dim %iterArg_7, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %49 = stablehlo.add %40, %48 : tensor<2xui32>
      %50 = stablehlo.broadcast_in_dim %iterArg_8, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %51 = stablehlo.add %47, %50 : tensor<2xui32>
      %c_17 = stablehlo.constant dense<1> : tensor<i32>
      %52 = stablehlo.add %iterArg_4, %c_17 : tensor<i32>
      %53 = stablehlo.convert %52 : (tensor<i32>) -> tensor<ui32>
      %54 = stablehlo.broadcast_in_dim %53, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %55 = stablehlo.add %51, %54 : tensor<2xui32>
      %c_18 = stablehlo.constant dense<1> : tensor<i32>
      %56 = stablehlo.add %iterArg, %c_18 : tensor<i32>
      stablehlo.return %56, %7, %49, %55, %iterArg_8, %iterArg_9, %iterArg_7, %iterArg_11, %iterArg_10 : tensor<i32>, tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<2xui32>, tensor<2xui32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<12x4x8xf32>, %arg1: tensor<i32>) -> tensor<4x8xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 4, 8] : (tensor<12x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<12x4x16xf32>, %arg1: tensor<4x16xf32>, %arg2: tensor<i32>) -> tensor<12x4x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<12x4x16xf32>, tensor<1x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<12x4x16xf32>
    return %1 : tensor<12x4x16xf32>
  }
}
