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
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<10x3x12xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %10:14 = stablehlo.while(%iterArg = %8, %iterArg_10 = %arg7, %iterArg_11 = %arg6, %iterArg_12 = %arg2, %iterArg_13 = %arg9, %iterArg_14 = %arg8, %iterArg_15 = %arg3, %iterArg_16 = %arg5, %iterArg_17 = %arg4, %iterArg_18 = %arg1, %iterArg_19 = %arg0, %iterArg_20 = %c_3, %iterArg_21 = %7, %iterArg_22 = %9) : tensor<10x3x6xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<12xf32>, tensor<i32>, tensor<3x12xf32>, tensor<10x3x12xf32>
    cond {
      %c_23 = stablehlo.constant dense<10> : tensor<i32>
      %27 = stablehlo.compare LT, %iterArg_20, %c_23, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %27 : tensor<i1>
    } do {
      %27 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_20) : (tensor<10x3x6xf32>, tensor<i32>) -> tensor<3x6xf32>
      %28 = stablehlo.dot_general %27, %iterArg_10, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x12xf32>) -> tensor<3x12xf32>
      %29 = stablehlo.reshape %iterArg_11 : (tensor<12xf32>) -> tensor<1x12xf32>
      %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
      %31 = stablehlo.add %28, %30 : tensor<3x12xf32>
      %32 = stablehlo.dot_general %iterArg_21, %iterArg_12, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
      %33 = stablehlo.add %31, %32 : tensor<3x12xf32>
      %34 = stablehlo.negate %33 : tensor<3x12xf32>
      %35 = stablehlo.exponential %34 : tensor<3x12xf32>
      %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %36 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %37 = stablehlo.add %36, %35 : tensor<3x12xf32>
      %cst_24 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %38 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %39 = stablehlo.divide %38, %37 : tensor<3x12xf32>
      %40 = stablehlo.dot_general %27, %iterArg_13, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x12xf32>) -> tensor<3x12xf32>
      %41 = stablehlo.reshape %iterArg_14 : (tensor<12xf32>) -> tensor<1x12xf32>
      %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
      %43 = stablehlo.add %40, %42 : tensor<3x12xf32>
      %44 = stablehlo.dot_general %iterArg_21, %iterArg_15, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
      %45 = stablehlo.add %43, %44 : tensor<3x12xf32>
      %46 = stablehlo.negate %45 : tensor<3x12xf32>
      %47 = stablehlo.exponential %46 : tensor<3x12xf32>
      %cst_25 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %48 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %49 = stablehlo.add %48, %47 : tensor<3x12xf32>
      %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %50 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %51 = stablehlo.divide %50, %49 : tensor<3x12xf32>
      %52 = stablehlo.dot_general %27, %iterArg_16, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x12xf32>) -> tensor<3x12xf32>
      %53 = stablehlo.reshape %iterArg_17 : (tensor<12xf32>) -> tensor<1x12xf32>
      %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
      %55 = stablehlo.add %52, %54 : tensor<3x12xf32>
      %56 = stablehlo.dot_general %iterArg_21, %iterArg_18, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
      %57 = stablehlo.reshape %iterArg_19 : (tensor<12xf32>) -> tensor<1x12xf32>
      %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
      %59 = stablehlo.add %56, %58 : tensor<3x12xf32>
      %60 = stablehlo.multiply %39, %59 : tensor<3x12xf32>
      %61 = stablehlo.add %55, %60 : tensor<3x12xf32>
      %62 = stablehlo.tanh %61 : tensor<3x12xf32>
      %cst_27 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %63 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %64 = stablehlo.subtract %63, %51 : tensor<3x12xf32>
      %65 = stablehlo.multiply %64, %62 : tensor<3x12xf32>
      %66 = stablehlo.multiply %51, %iterArg_21 : tensor<3x12xf32>
      %67 = stablehlo.add %65, %66 : tensor<3x12xf32>
      %68 = func.call @dynamic_update_index_in_dim(%iterArg_22, %67, %iterArg_20) : (tensor<10x3x12xf32>, tensor<3x12xf32>, tensor<i32>) -> tensor<10x3x12xf32>
      %c_28 = stablehlo.constant dense<1> : tensor<i32>
      %69 = stablehlo.add %iterArg_20, %c_28 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %69, %67, %68 : tensor<10x3x6xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<12xf32>, tensor<i32>, tensor<3x12xf32>, tensor<10x3x12xf32>
    }
    %11 = stablehlo.transpose %10#13, dims = [1, 0, 2] : (tensor<10x3x12xf32>) -> tensor<3x10x12xf32>
    %12 = call @_flip(%arg20) : (tensor<3x10x6xf32>) -> tensor<3x10x6xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %c_5 = stablehlo.constant dense<32> : tensor<i32>
    %13 = stablehlo.shift_right_logical %c_4, %c_5 : tensor<i32>
    %14 = stablehlo.convert %13 : (tensor<i32>) -> tensor<ui32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %c_6 = stablehlo.constant dense<-1> : tensor<i32>
    %16 = stablehlo.and %c_4, %c_6 : tensor<i32>
    %17 = stablehlo.convert %16 : (tensor<i32>) -> tensor<ui32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %19 = stablehlo.concatenate %15, %18, dim = 0 : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %21 = stablehlo.transpose %12, dims = [1, 0, 2] : (tensor<3x10x6xf32>) -> tensor<10x3x6xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<10x3x12xf32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %23:14 = stablehlo.while(%iterArg = %21, %iterArg_10 = %arg17, %iterArg_11 = %arg16, %iterArg_12 = %arg12, %iterArg_13 = %arg19, %iterArg_14 = %arg18, %iterArg_15 = %arg13, %iterArg_16 = %arg15, %iterArg_17 = %arg14, %iterArg_18 = %arg11, %iterArg_19 = %arg10, %iterArg_20 = %c_9, %iterArg_21 = %20, %iterArg_22 = %22) : tensor<10x3x6xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<12xf32>, tensor<i32>, tensor<3x12xf32>, tensor<10x3x12xf32>
    cond {
      %c_23 = stablehlo.constant dense<10> : tensor<i32>
      %27 = stablehlo.compare LT, %iterArg_20, %c_23, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %27 : tensor<i1>
    } do {
      %27 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_20) : (tensor<10x3x6xf32>, tensor<i32>) -> tensor<3x6xf32>
      %28 = stablehlo.dot_general %27, %iterArg_10, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x12xf32>) -> tensor<3x12xf32>
      %29 = stablehlo.reshape %iterArg_11 : (tensor<12xf32>) -> tensor<1x12xf32>
      %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
      %31 = stablehlo.add %28, %30 : tensor<3x12xf32>
      %32 = stablehlo.dot_general %iterArg_21, %iterArg_12, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
      %33 = stablehlo.add %31, %32 : tensor<3x12xf32>
      %34 = stablehlo.negate %33 : tensor<3x12xf32>
      %35 = stablehlo.exponential %34 : tensor<3x12xf32>
      %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %36 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %37 = stablehlo.add %36, %35 : tensor<3x12xf32>
      %cst_24 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %38 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %39 = stablehlo.divide %38, %37 : tensor<3x12xf32>
      %40 = stablehlo.dot_general %27, %iterArg_13, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x12xf32>) -> tensor<3x12xf32>
      %41 = stablehlo.reshape %iterArg_14 : (tensor<12xf32>) -> tensor<1x12xf32>
      %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
      %43 = stablehlo.add %40, %42 : tensor<3x12xf32>
      %44 = stablehlo.dot_general %iterArg_21, %iterArg_15, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
      %45 = stablehlo.add %43, %44 : tensor<3x12xf32>
      %46 = stablehlo.negate %45 : tensor<3x12xf32>
      %47 = stablehlo.exponential %46 : tensor<3x12xf32>
      %cst_25 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %48 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %49 = stablehlo.add %48, %47 : tensor<3x12xf32>
      %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %50 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %51 = stablehlo.divide %50, %49 : tensor<3x12xf32>
      %52 = stablehlo.dot_general %27, %iterArg_16, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x12xf32>) -> tensor<3x12xf32>
      %53 = stablehlo.reshape %iterArg_17 : (tensor<12xf32>) -> tensor<1x12xf32>
      %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
      %55 = stablehlo.add %52, %54 : tensor<3x12xf32>
      %56 = stablehlo.dot_general %iterArg_21, %iterArg_18, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
      %57 = stablehlo.reshape %iterArg_19 : (tensor<12xf32>) -> tensor<1x12xf32>
      %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<3x12xf32>
      %59 = stablehlo.add %56, %58 : tensor<3x12xf32>
      %60 = stablehlo.multiply %39, %59 : tensor<3x12xf32>
      %61 = stablehlo.add %55, %60 : tensor<3x12xf32>
      %62 = stablehlo.tanh %61 : tensor<3x12xf32>
      %cst_27 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %63 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
      %64 = stablehlo.subtract %63, %51 : tensor<3x12xf32>
      %65 = stablehlo.multiply %64, %62 : tensor<3x12xf32>
      %66 = stablehlo.multiply %51, %iterArg_21 : tensor<3x12xf32>
      %67 = stablehlo.add %65, %66 : tensor<3x12xf32>
      %68 = func.call @dynamic_update_index_in_dim(%iterArg_22, %67, %iterArg_20) : (tensor<10x3x12xf32>, tensor<3x12xf32>, tensor<i32>) -> tensor<10x3x12xf32>
      %c_28 = stablehlo.constant dense<1> : tensor<i32>
      %69 = stablehlo.add %iterArg_20, %c_28 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %69, %67, %68 : tensor<10x3x6xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<6x12xf32>, tensor<12xf32>, tensor<12x12xf32>, tensor<12xf32>, tensor<i32>, tensor<3x12xf32>, tensor<10x3x12xf32>
    }
    %24 = stablehlo.transpose %23#13, dims = [1, 0, 2] : (tensor<10x3x12xf32>) -> tensor<3x10x12xf32>
    %25 = call @_flip_0(%24) : (tensor<3x10x12xf32>) -> tensor<3x10x12xf32>
    %26 = stablehlo.concatenate %11, %25, dim = 2 : (tensor<3x10x12xf32>, tensor<3x10x12xf32>) -> tensor<3x10x24xf32>
    return %26 : tensor<3x10x24xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<10x3x6xf32>, %arg1: tensor<i32>) -> tensor<3x6xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3, 6] : (tensor<10x3x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x6xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3x6xf32>) -> tensor<3x6xf32>
    return %1 : tensor<3x6xf32>
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
  func.func private @_flip_0(%arg0: tensor<3x10x12xf32>) -> tensor<3x10x12xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<3x10x12xf32>
    return %0 : tensor<3x10x12xf32>
  }
}
