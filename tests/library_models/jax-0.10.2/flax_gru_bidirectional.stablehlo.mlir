module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xf32>, %arg1: tensor<12x12xf32>, %arg2: tensor<12x12xf32>, %arg3: tensor<12x12xf32>, %arg4: tensor<12xf32>, %arg5: tensor<6x12xf32>, %arg6: tensor<12xf32>, %arg7: tensor<6x12xf32>, %arg8: tensor<12xf32>, %arg9: tensor<6x12xf32>, %arg10: tensor<12xf32>, %arg11: tensor<12x12xf32>, %arg12: tensor<12x12xf32>, %arg13: tensor<12x12xf32>, %arg14: tensor<12xf32>, %arg15: tensor<6x12xf32>, %arg16: tensor<12xf32>, %arg17: tensor<6x12xf32>, %arg18: tensor<12xf32>, %arg19: tensor<6x12xf32>, %arg20: tensor<3x10x6xf32>) -> (tensor<3x10x24xf32> {jax.result_info = "result"}) {
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
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %8 = stablehlo.transpose %arg20, dims = [1, 0, 2] : (tensor<3x10x6xf32>) -> tensor<10x3x6xf32>
    %9 = stablehlo.reshape %arg6 : (tensor<12xf32>) -> tensor<1x12xf32>
    %10 = stablehlo.reshape %arg8 : (tensor<12xf32>) -> tensor<1x12xf32>
    %11 = stablehlo.reshape %arg4 : (tensor<12xf32>) -> tensor<1x12xf32>
    %12 = stablehlo.reshape %arg0 : (tensor<12xf32>) -> tensor<1x12xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<10x3x12xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %14:14 = stablehlo.while(%iterArg = %8, %iterArg_10 = %arg7, %iterArg_11 = %arg6, %iterArg_12 = %arg2, %iterArg_13 = %arg9, %iterArg_14 = %arg8, %iterArg_15 = %arg3, %iterArg_16 = %arg5, %iterArg_17 = %arg4, %iterArg_18 = %arg1, %iterArg_19 = %arg0, %iterArg_20 = %c_3, %iterArg_21 = %7, %iterArg_22 = %13) : tensor<10x3x6xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<12xf32>, tensor<i32>, tensor<3x12xf32>, tensor<10x3x12xf32>
    cond {
      %c_23 = stablehlo.constant dense<10> : tensor<i32>
      %35 = stablehlo.compare LT, %iterArg_20, %c_23, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %35 : tensor<i1>
    } do {
      %35 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_20) : (tensor<10x3x6xf32>, tensor<i32>) -> tensor<3x6xf32>
      %36:2 = func.call @closed_call(%iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %iterArg_21, %35) : (tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<12xf32>, tensor<3x12xf32>, tensor<3x6xf32>) -> (tensor<3x12xf32>, tensor<3x12xf32>)
      %37 = func.call @dynamic_update_index_in_dim(%iterArg_22, %36#1, %iterArg_20) : (tensor<10x3x12xf32>, tensor<3x12xf32>, tensor<i32>) -> tensor<10x3x12xf32>
      %c_23 = stablehlo.constant dense<1> : tensor<i32>
      %38 = stablehlo.add %iterArg_20, %c_23 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %38, %36#0, %37 : tensor<10x3x6xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<12xf32>, tensor<i32>, tensor<3x12xf32>, tensor<10x3x12xf32>
    }
    %15 = stablehlo.transpose %14#13, dims = [1, 0, 2] : (tensor<10x3x12xf32>) -> tensor<3x10x12xf32>
    %16 = call @_flip(%arg20) : (tensor<3x10x6xf32>) -> tensor<3x10x6xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %c_5 = stablehlo.constant dense<32> : tensor<i32>
    %17 = stablehlo.shift_right_logical %c_4, %c_5 : tensor<i32>
    %18 = stablehlo.convert %17 : (tensor<i32>) -> tensor<ui32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %c_6 = stablehlo.constant dense<-1> : tensor<i32>
    %20 = stablehlo.and %c_4, %c_6 : tensor<i32>
    %21 = stablehlo.convert %20 : (tensor<i32>) -> tensor<ui32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %23 = stablehlo.concatenate %19, %22, dim = 0 : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %25 = stablehlo.transpose %16, dims = [1, 0, 2] : (tensor<3x10x6xf32>) -> tensor<10x3x6xf32>
    %26 = stablehlo.reshape %arg16 : (tensor<12xf32>) -> tensor<1x12xf32>
    %27 = stablehlo.reshape %arg18 : (tensor<12xf32>) -> tensor<1x12xf32>
    %28 = stablehlo.reshape %arg14 : (tensor<12xf32>) -> tensor<1x12xf32>
    %29 = stablehlo.reshape %arg10 : (tensor<12xf32>) -> tensor<1x12xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<10x3x12xf32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %31:14 = stablehlo.while(%iterArg = %25, %iterArg_10 = %arg17, %iterArg_11 = %arg16, %iterArg_12 = %arg12, %iterArg_13 = %arg19, %iterArg_14 = %arg18, %iterArg_15 = %arg13, %iterArg_16 = %arg15, %iterArg_17 = %arg14, %iterArg_18 = %arg11, %iterArg_19 = %arg10, %iterArg_20 = %c_9, %iterArg_21 = %24, %iterArg_22 = %30) : tensor<10x3x6xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<12xf32>, tensor<i32>, tensor<3x12xf32>, tensor<10x3x12xf32>
    cond {
      %c_23 = stablehlo.constant dense<10> : tensor<i32>
      %35 = stablehlo.compare LT, %iterArg_20, %c_23, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %35 : tensor<i1>
    } do {
      %35 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_20) : (tensor<10x3x6xf32>, tensor<i32>) -> tensor<3x6xf32>
      %36:2 = func.call @closed_call_0(%iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %iterArg_21, %35) : (tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<12xf32>, tensor<3x12xf32>, tensor<3x6xf32>) -> (tensor<3x12xf32>, tensor<3x12xf32>)
      %37 = func.call @dynamic_update_index_in_dim(%iterArg_22, %36#1, %iterArg_20) : (tensor<10x3x12xf32>, tensor<3x12xf32>, tensor<i32>) -> tensor<10x3x12xf32>
      %c_23 = stablehlo.constant dense<1> : tensor<i32>
      %38 = stablehlo.add %iterArg_20, %c_23 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %38, %36#0, %37 : tensor<10x3x6xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<12xf32>, tensor<i32>, tensor<3x12xf32>, tensor<10x3x12xf32>
    }
    %32 = stablehlo.transpose %31#13, dims = [1, 0, 2] : (tensor<10x3x12xf32>) -> tensor<3x10x12xf32>
    %33 = call @_flip_1(%32) : (tensor<3x10x12xf32>) -> tensor<3x10x12xf32>
    %34 = stablehlo.concatenate %15, %33, dim = 2 : (tensor<3x10x12xf32>, tensor<3x10x12xf32>) -> tensor<3x10x24xf32>
    return %34 : tensor<3x10x24xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<10x3x6xf32>, %arg1: tensor<i32>) -> tensor<3x6xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3, 6] : (tensor<10x3x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x6xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3x6xf32>) -> tensor<3x6xf32>
    return %1 : tensor<3x6xf32>
  }
  func.func private @closed_call(%arg0: tensor<6x12xf32>, %arg1: tensor<12xf32>, %arg2: tensor<12x12xf32>, %arg3: tensor<6x12xf32>, %arg4: tensor<12xf32>, %arg5: tensor<12x12xf32>, %arg6: tensor<6x12xf32>, %arg7: tensor<12xf32>, %arg8: tensor<12x12xf32>, %arg9: tensor<12xf32>, %arg10: tensor<3x12xf32>, %arg11: tensor<3x6xf32>) -> (tensor<3x12xf32>, tensor<3x12xf32>) {
    %0 = stablehlo.dot_general %arg11, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x12xf32>) -> tensor<3x12xf32>
    %1 = stablehlo.reshape %arg1 : (tensor<12xf32>) -> tensor<1x12xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
    %3 = stablehlo.add %0, %2 : tensor<3x12xf32>
    %4 = stablehlo.dot_general %arg10, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
    %5 = stablehlo.add %3, %4 : tensor<3x12xf32>
    %6 = stablehlo.negate %5 : tensor<3x12xf32>
    %7 = stablehlo.exponential %6 : tensor<3x12xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %9 = stablehlo.add %8, %7 : tensor<3x12xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %11 = stablehlo.divide %10, %9 : tensor<3x12xf32>
    %12 = stablehlo.dot_general %arg11, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x12xf32>) -> tensor<3x12xf32>
    %13 = stablehlo.reshape %arg4 : (tensor<12xf32>) -> tensor<1x12xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
    %15 = stablehlo.add %12, %14 : tensor<3x12xf32>
    %16 = stablehlo.dot_general %arg10, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
    %17 = stablehlo.add %15, %16 : tensor<3x12xf32>
    %18 = stablehlo.negate %17 : tensor<3x12xf32>
    %19 = stablehlo.exponential %18 : tensor<3x12xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %21 = stablehlo.add %20, %19 : tensor<3x12xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %23 = stablehlo.divide %22, %21 : tensor<3x12xf32>
    %24 = stablehlo.dot_general %arg11, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x12xf32>) -> tensor<3x12xf32>
    %25 = stablehlo.reshape %arg7 : (tensor<12xf32>) -> tensor<1x12xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
    %27 = stablehlo.add %24, %26 : tensor<3x12xf32>
    %28 = stablehlo.dot_general %arg10, %arg8, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
    %29 = stablehlo.reshape %arg9 : (tensor<12xf32>) -> tensor<1x12xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
    %31 = stablehlo.add %28, %30 : tensor<3x12xf32>
    %32 = stablehlo.multiply %11, %31 : tensor<3x12xf32>
    %33 = stablehlo.add %27, %32 : tensor<3x12xf32>
    %34 = stablehlo.tanh %33 : tensor<3x12xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %36 = stablehlo.subtract %35, %23 : tensor<3x12xf32>
    %37 = stablehlo.multiply %36, %34 : tensor<3x12xf32>
    %38 = stablehlo.multiply %23, %arg10 : tensor<3x12xf32>
    %39 = stablehlo.add %37, %38 : tensor<3x12xf32>
    return %39, %39 : tensor<3x12xf32>, tensor<3x12xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<10x3x12xf32>, %arg1: tensor<3x12xf32>, %arg2: tensor<i32>) -> tensor<10x3x12xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x12xf32>) -> tensor<1x3x12xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<10x3x12xf32>, tensor<1x3x12xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<10x3x12xf32>
    return %1 : tensor<10x3x12xf32>
  }
  func.func private @_flip(%arg0: tensor<3x10x6xf32>) -> tensor<3x10x6xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<3x10x6xf32>
    return %0 : tensor<3x10x6xf32>
  }
  func.func private @closed_call_0(%arg0: tensor<6x12xf32>, %arg1: tensor<12xf32>, %arg2: tensor<12x12xf32>, %arg3: tensor<6x12xf32>, %arg4: tensor<12xf32>, %arg5: tensor<12x12xf32>, %arg6: tensor<6x12xf32>, %arg7: tensor<12xf32>, %arg8: tensor<12x12xf32>, %arg9: tensor<12xf32>, %arg10: tensor<3x12xf32>, %arg11: tensor<3x6xf32>) -> (tensor<3x12xf32>, tensor<3x12xf32>) {
    %0 = stablehlo.dot_general %arg11, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x12xf32>) -> tensor<3x12xf32>
    %1 = stablehlo.reshape %arg1 : (tensor<12xf32>) -> tensor<1x12xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
    %3 = stablehlo.add %0, %2 : tensor<3x12xf32>
    %4 = stablehlo.dot_general %arg10, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
    %5 = stablehlo.add %3, %4 : tensor<3x12xf32>
    %6 = stablehlo.negate %5 : tensor<3x12xf32>
    %7 = stablehlo.exponential %6 : tensor<3x12xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %9 = stablehlo.add %8, %7 : tensor<3x12xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %11 = stablehlo.divide %10, %9 : tensor<3x12xf32>
    %12 = stablehlo.dot_general %arg11, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x12xf32>) -> tensor<3x12xf32>
    %13 = stablehlo.reshape %arg4 : (tensor<12xf32>) -> tensor<1x12xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
    %15 = stablehlo.add %12, %14 : tensor<3x12xf32>
    %16 = stablehlo.dot_general %arg10, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
    %17 = stablehlo.add %15, %16 : tensor<3x12xf32>
    %18 = stablehlo.negate %17 : tensor<3x12xf32>
    %19 = stablehlo.exponential %18 : tensor<3x12xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %21 = stablehlo.add %20, %19 : tensor<3x12xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %23 = stablehlo.divide %22, %21 : tensor<3x12xf32>
    %24 = stablehlo.dot_general %arg11, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x12xf32>) -> tensor<3x12xf32>
    %25 = stablehlo.reshape %arg7 : (tensor<12xf32>) -> tensor<1x12xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
    %27 = stablehlo.add %24, %26 : tensor<3x12xf32>
    %28 = stablehlo.dot_general %arg10, %arg8, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
    %29 = stablehlo.reshape %arg9 : (tensor<12xf32>) -> tensor<1x12xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
    %31 = stablehlo.add %28, %30 : tensor<3x12xf32>
    %32 = stablehlo.multiply %11, %31 : tensor<3x12xf32>
    %33 = stablehlo.add %27, %32 : tensor<3x12xf32>
    %34 = stablehlo.tanh %33 : tensor<3x12xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %36 = stablehlo.subtract %35, %23 : tensor<3x12xf32>
    %37 = stablehlo.multiply %36, %34 : tensor<3x12xf32>
    %38 = stablehlo.multiply %23, %arg10 : tensor<3x12xf32>
    %39 = stablehlo.add %37, %38 : tensor<3x12xf32>
    return %39, %39 : tensor<3x12xf32>, tensor<3x12xf32>
  }
  func.func private @_flip_1(%arg0: tensor<3x10x12xf32>) -> tensor<3x10x12xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<3x10x12xf32>
    return %0 : tensor<3x10x12xf32>
  }
}
