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
    %15 = stablehlo.concatenate %arg5, %arg1, %arg3, %arg7, dim = 1 : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x64xf32>
    %16 = stablehlo.concatenate %arg4, %arg0, %arg2, %arg6, dim = 0 : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<64xf32>
    %17 = stablehlo.reshape %16 : (tensor<64xf32>) -> tensor<1x64xf32>
    %18 = stablehlo.concatenate %arg10, %arg8, %arg9, %arg11, dim = 1 : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x64xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<12x4x16xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %20:17 = stablehlo.while(%iterArg = %14, %iterArg_5 = %arg5, %iterArg_6 = %arg1, %iterArg_7 = %arg3, %iterArg_8 = %arg7, %iterArg_9 = %arg4, %iterArg_10 = %arg0, %iterArg_11 = %arg2, %iterArg_12 = %arg6, %iterArg_13 = %arg10, %iterArg_14 = %arg8, %iterArg_15 = %arg9, %iterArg_16 = %arg11, %iterArg_17 = %c_4, %iterArg_18 = %12, %iterArg_19 = %13, %iterArg_20 = %19) : tensor<12x4x8xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<12x4x16xf32>
    cond {
      %c_21 = stablehlo.constant dense<12> : tensor<i32>
      %22 = stablehlo.compare LT, %iterArg_17, %c_21, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %22 : tensor<i1>
    } do {
      %22 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_17) : (tensor<12x4x8xf32>, tensor<i32>) -> tensor<4x8xf32>
      %23:3 = func.call @closed_call_0(%iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %iterArg_18, %iterArg_19, %22) : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x8xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
      %24 = func.call @dynamic_update_index_in_dim(%iterArg_20, %23#2, %iterArg_17) : (tensor<12x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<12x4x16xf32>
      %c_21 = stablehlo.constant dense<1> : tensor<i32>
      %25 = stablehlo.add %iterArg_17, %c_21 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %25, %23#0, %23#1, %24 : tensor<12x4x8xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<12x4x16xf32>
    }
    %21 = stablehlo.transpose %20#16, dims = [1, 0, 2] : (tensor<12x4x16xf32>) -> tensor<4x12x16xf32>
    return %21 : tensor<4x12x16xf32>
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
      %7:8 = func.call @closed_call(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg, %c_12 : tensor<i32>
      stablehlo.return %8, %7#0, %7#1, %7#2, %7#3, %7#4, %7#5, %7#6, %7#7 : tensor<i32>, tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<2xui32>, tensor<2xui32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<2xui32>, %arg2: tensor<2xui32>, %arg3: tensor<ui32>, %arg4: tensor<ui32>, %arg5: tensor<ui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<2xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<2xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<2xui32>
    %9 = stablehlo.or %5, %8 : tensor<2xui32>
    %10 = stablehlo.xor %3, %9 : tensor<2xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<2xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<2xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<2xui32>
    %19 = stablehlo.or %15, %18 : tensor<2xui32>
    %20 = stablehlo.xor %13, %19 : tensor<2xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<2xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<2xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<2xui32>
    %29 = stablehlo.or %25, %28 : tensor<2xui32>
    %30 = stablehlo.xor %23, %29 : tensor<2xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<2xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<2xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<2xui32>
    %39 = stablehlo.or %35, %38 : tensor<2xui32>
    %40 = stablehlo.xor %33, %39 : tensor<2xui32>
    %41 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %42 = stablehlo.add %33, %41 : tensor<2xui32>
    %43 = stablehlo.broadcast_in_dim %arg4, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %44 = stablehlo.add %40, %43 : tensor<2xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %45 = stablehlo.add %arg0, %c_4 : tensor<i32>
    %46 = stablehlo.convert %45 : (tensor<i32>) -> tensor<ui32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %48 = stablehlo.add %44, %47 : tensor<2xui32>
    return %0, %42, %48, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<12x4x8xf32>, %arg1: tensor<i32>) -> tensor<4x8xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 4, 8] : (tensor<12x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
  func.func private @closed_call_0(%arg0: tensor<16x16xf32>, %arg1: tensor<16x16xf32>, %arg2: tensor<16x16xf32>, %arg3: tensor<16x16xf32>, %arg4: tensor<16xf32>, %arg5: tensor<16xf32>, %arg6: tensor<16xf32>, %arg7: tensor<16xf32>, %arg8: tensor<8x16xf32>, %arg9: tensor<8x16xf32>, %arg10: tensor<8x16xf32>, %arg11: tensor<8x16xf32>, %arg12: tensor<4x16xf32>, %arg13: tensor<4x16xf32>, %arg14: tensor<4x8xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
    %0 = stablehlo.concatenate %arg0, %arg1, %arg2, %arg3, dim = 1 : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.concatenate %arg4, %arg5, %arg6, %arg7, dim = 0 : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<64xf32>
    %2 = stablehlo.dot_general %arg13, %0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x64xf32>) -> tensor<4x64xf32>
    %3 = stablehlo.reshape %1 : (tensor<64xf32>) -> tensor<1x64xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<4x64xf32>
    %5 = stablehlo.add %2, %4 : tensor<4x64xf32>
    %6 = stablehlo.slice %5 [0:4, 0:16] : (tensor<4x64xf32>) -> tensor<4x16xf32>
    %7 = stablehlo.slice %5 [0:4, 16:32] : (tensor<4x64xf32>) -> tensor<4x16xf32>
    %8 = stablehlo.slice %5 [0:4, 32:48] : (tensor<4x64xf32>) -> tensor<4x16xf32>
    %9 = stablehlo.slice %5 [0:4, 48:64] : (tensor<4x64xf32>) -> tensor<4x16xf32>
    %10 = stablehlo.concatenate %arg8, %arg9, %arg10, %arg11, dim = 1 : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x64xf32>
    %11 = stablehlo.dot_general %arg14, %10, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x64xf32>) -> tensor<4x64xf32>
    %12 = stablehlo.slice %11 [0:4, 0:16] : (tensor<4x64xf32>) -> tensor<4x16xf32>
    %13 = stablehlo.slice %11 [0:4, 16:32] : (tensor<4x64xf32>) -> tensor<4x16xf32>
    %14 = stablehlo.slice %11 [0:4, 32:48] : (tensor<4x64xf32>) -> tensor<4x16xf32>
    %15 = stablehlo.slice %11 [0:4, 48:64] : (tensor<4x64xf32>) -> tensor<4x16xf32>
    %16 = stablehlo.add %6, %12 : tensor<4x16xf32>
    %17 = stablehlo.negate %16 : tensor<4x16xf32>
    %18 = stablehlo.exponential %17 : tensor<4x16xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %20 = stablehlo.add %19, %18 : tensor<4x16xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %22 = stablehlo.divide %21, %20 : tensor<4x16xf32>
    %23 = stablehlo.add %7, %13 : tensor<4x16xf32>
    %24 = stablehlo.negate %23 : tensor<4x16xf32>
    %25 = stablehlo.exponential %24 : tensor<4x16xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %27 = stablehlo.add %26, %25 : tensor<4x16xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %29 = stablehlo.divide %28, %27 : tensor<4x16xf32>
    %30 = stablehlo.add %8, %14 : tensor<4x16xf32>
    %31 = stablehlo.tanh %30 : tensor<4x16xf32>
    %32 = stablehlo.add %9, %15 : tensor<4x16xf32>
    %33 = stablehlo.negate %32 : tensor<4x16xf32>
    %34 = stablehlo.exponential %33 : tensor<4x16xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %36 = stablehlo.add %35, %34 : tensor<4x16xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %38 = stablehlo.divide %37, %36 : tensor<4x16xf32>
    %39 = stablehlo.multiply %29, %arg12 : tensor<4x16xf32>
    %40 = stablehlo.multiply %22, %31 : tensor<4x16xf32>
    %41 = stablehlo.add %39, %40 : tensor<4x16xf32>
    %42 = stablehlo.tanh %41 : tensor<4x16xf32>
    %43 = stablehlo.multiply %38, %42 : tensor<4x16xf32>
    return %41, %43, %43 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<12x4x16xf32>, %arg1: tensor<4x16xf32>, %arg2: tensor<i32>) -> tensor<12x4x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<12x4x16xf32>, tensor<1x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<12x4x16xf32>
    return %1 : tensor<12x4x16xf32>
  }
}
