module @IrToHlo.343 attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} {
  func.func @main(%arg0: tensor<4xi64>, %arg1: tensor<10xf32>, %arg2: tensor<10x128xf32>, %arg3: tensor<8xf32>, %arg4: tensor<8xf32>, %arg5: tensor<8xf32>, %arg6: tensor<8xf32>, %arg7: tensor<8xf32>, %arg8: tensor<8x3x3x3xf32>, %arg9: tensor<4x3x8x8xf32>, %arg10: tensor<f32>, %arg11: tensor<f32>, %arg12: tensor<f32>, %arg13: tensor<8x3x3x3xf32>, %arg14: tensor<8xf32>, %arg15: tensor<8xf32>, %arg16: tensor<8xf32>, %arg17: tensor<10x128xf32>, %arg18: tensor<10xf32>, %arg19: tensor<i64>) -> (tensor<f32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<10x128xf32>, tensor<10xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<10x128xf32>, tensor<10xf32>, tensor<8xf32>, tensor<8xf32>, tensor<i64>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %cst = stablehlo.constant dense<0.899999976> : tensor<8xf32>
    %cst_0 = stablehlo.constant dense<1.000000e-01> : tensor<8xf32>
    %c_1 = stablehlo.constant dense<-100> : tensor<4xi64>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<4x10xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<4x10xf32>
    %cst_4 = stablehlo.constant dense<9.99999974E-6> : tensor<8xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<8xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<4x8x8x8xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_8 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.convolution(%arg9, %arg8) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<4x8x8x8xf32>
    %1 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<8xf32>) -> tensor<4x8x8x8xf32>
    %2 = stablehlo.add %0, %1 : tensor<4x8x8x8xf32>
    %output, %batch_mean, %batch_var = "stablehlo.batch_norm_training"(%2, %arg6, %arg5) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<4x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>)
    %3 = stablehlo.maximum %output, %cst_6 : tensor<4x8x8x8xf32>
    %4 = "stablehlo.reduce_window"(%3, %cst_8) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({
    ^bb0(%arg20: tensor<f32>, %arg21: tensor<f32>):
      %117 = stablehlo.maximum %arg20, %arg21 : tensor<f32>
      stablehlo.return %117 : tensor<f32>
    }) : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<4x8x4x4xf32>
    %5 = stablehlo.add %batch_var, %cst_4 : tensor<8xf32>
    %6 = stablehlo.rsqrt %5 : tensor<8xf32>
    %7 = stablehlo.divide %cst_5, %6 : tensor<8xf32>
    %8 = stablehlo.multiply %7, %7 : tensor<8xf32>
    %9 = stablehlo.subtract %8, %cst_4 : tensor<8xf32>
    %10 = stablehlo.compare  GT, %3, %cst_6 : (tensor<4x8x8x8xf32>, tensor<4x8x8x8xf32>) -> tensor<4x8x8x8xi1>
    %11 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<4xi64>) -> tensor<4x10xi64>
    %12 = stablehlo.iota dim = 0 : tensor<10xi64>
    %13 = stablehlo.broadcast_in_dim %12, dims = [1] : (tensor<10xi64>) -> tensor<4x10xi64>
    %14 = stablehlo.compare  EQ, %11, %13 : (tensor<4x10xi64>, tensor<4x10xi64>) -> tensor<4x10xi1>
    %15 = stablehlo.select %14, %cst_3, %cst_2 : tensor<4x10xi1>, tensor<4x10xf32>
    %16 = stablehlo.negate %15 : tensor<4x10xf32>
    %17 = stablehlo.compare  NE, %arg0, %c_1 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0] : (tensor<4xi1>) -> tensor<4x10xi1>
    %19 = stablehlo.select %18, %cst_3, %cst_2 : tensor<4x10xi1>, tensor<4x10xf32>
    %20 = stablehlo.multiply %19, %15 : tensor<4x10xf32>
    %21 = stablehlo.multiply %16, %20 : tensor<4x10xf32>
    %22 = stablehlo.reduce(%20 init: %cst_9) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<f32>
    %23 = stablehlo.compare  NE, %22, %cst_9 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %24 = stablehlo.select %23, %22, %cst_7 : tensor<i1>, tensor<f32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [] : (tensor<f32>) -> tensor<4x10xf32>
    %26 = stablehlo.divide %21, %25 : tensor<4x10xf32>
    %27 = stablehlo.reshape %4 : (tensor<4x8x4x4xf32>) -> tensor<4x128xf32>
    %28 = stablehlo.transpose %arg2, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,10]{0,1}"} : (tensor<10x128xf32>) -> tensor<128x10xf32>
    %29 = stablehlo.dot_general %27, %28, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x128xf32>, tensor<128x10xf32>) -> tensor<4x10xf32>
    %30 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<10xf32>) -> tensor<4x10xf32>
    %31 = stablehlo.add %29, %30 : tensor<4x10xf32>
    %32 = stablehlo.reduce(%31 init: %cst_8) applies stablehlo.maximum across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0] : (tensor<4xf32>) -> tensor<4x10xf32>
    %34 = stablehlo.subtract %31, %33 : tensor<4x10xf32>
    %35 = stablehlo.exponential %34 : tensor<4x10xf32>
    %36 = stablehlo.reduce(%35 init: %cst_9) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %37 = stablehlo.log %36 : tensor<4xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0] : (tensor<4xf32>) -> tensor<4x10xf32>
    %39 = stablehlo.subtract %34, %38 : tensor<4x10xf32>
    %40 = stablehlo.exponential %39 : tensor<4x10xf32>
    %41 = stablehlo.reduce(%26 init: %cst_9) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0] : (tensor<4xf32>) -> tensor<4x10xf32>
    %43 = stablehlo.multiply %40, %42 : tensor<4x10xf32>
    %44 = stablehlo.subtract %26, %43 : tensor<4x10xf32>
    %45 = stablehlo.dot_general %44, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x10xf32>, tensor<10x128xf32>) -> tensor<4x128xf32>
    %46 = stablehlo.reshape %45 : (tensor<4x128xf32>) -> tensor<4x8x4x4xf32>
    %47 = "stablehlo.select_and_scatter"(%3, %46, %cst_9) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({
    ^bb0(%arg20: tensor<f32>, %arg21: tensor<f32>):
      %117 = stablehlo.compare  GE, %arg20, %arg21 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %117 : tensor<i1>
    }, {
    ^bb0(%arg20: tensor<f32>, %arg21: tensor<f32>):
      %117 = stablehlo.add %arg20, %arg21 : tensor<f32>
      stablehlo.return %117 : tensor<f32>
    }) : (tensor<4x8x8x8xf32>, tensor<4x8x4x4xf32>, tensor<f32>) -> tensor<4x8x8x8xf32>
    %48 = stablehlo.select %10, %47, %cst_6 : tensor<4x8x8x8xi1>, tensor<4x8x8x8xf32>
    %grad_operand, %grad_scale, %grad_offset = "stablehlo.batch_norm_grad"(%2, %arg6, %batch_mean, %9, %48) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<4x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4x8x8x8xf32>) -> (tensor<4x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>)
    %49 = stablehlo.compare  NE, %15, %cst_3 : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xi1>
    %50 = stablehlo.multiply %16, %39 : tensor<4x10xf32>
    %51 = stablehlo.select %49, %cst_2, %50 : tensor<4x10xi1>, tensor<4x10xf32>
    %52 = stablehlo.multiply %51, %20 : tensor<4x10xf32>
    %53 = stablehlo.reduce(%52 init: %cst_9) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<f32>
    %54 = stablehlo.divide %53, %22 : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %arg12, dims = [] : (tensor<f32>) -> tensor<8x3x3x3xf32>
    %56 = stablehlo.multiply %arg13, %55 : tensor<8x3x3x3xf32>
    %57 = stablehlo.convolution(%arg9, %grad_operand) dim_numbers = [f, b, 0, 1]x[i, o, 0, 1]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x3x8x8xf32>, tensor<4x8x8x8xf32>) -> tensor<3x3x3x8xf32>
    %58 = stablehlo.transpose %57, dims = [3, 2, 0, 1] {result_layout = dense<[0, 1, 3, 2]> : tensor<4xindex>, xla_shape = "f32[8,3,3,3]{0,1,3,2}"} : (tensor<3x3x3x8xf32>) -> tensor<8x3x3x3xf32>
    %59 = stablehlo.broadcast_in_dim %arg11, dims = [] : (tensor<f32>) -> tensor<8x3x3x3xf32>
    %60 = stablehlo.multiply %arg8, %59 : tensor<8x3x3x3xf32>
    %61 = stablehlo.add %58, %60 {result_layout = dense<[0, 1, 3, 2]> : tensor<4xindex>, xla_shape = "f32[8,3,3,3]{0,1,3,2}"} : tensor<8x3x3x3xf32>
    %62 = stablehlo.add %56, %61 : tensor<8x3x3x3xf32>
    %63 = stablehlo.broadcast_in_dim %arg10, dims = [] : (tensor<f32>) -> tensor<8x3x3x3xf32>
    %64 = stablehlo.multiply %62, %63 : tensor<8x3x3x3xf32>
    %65 = stablehlo.add %arg8, %64 : tensor<8x3x3x3xf32>
    %66 = stablehlo.broadcast_in_dim %arg12, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %67 = stablehlo.multiply %arg14, %66 : tensor<8xf32>
    %68 = stablehlo.reduce(%grad_operand init: %cst_9) applies stablehlo.add across dimensions = [0, 2, 3] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %69 = stablehlo.broadcast_in_dim %arg11, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %70 = stablehlo.multiply %arg7, %69 : tensor<8xf32>
    %71 = stablehlo.add %68, %70 : tensor<8xf32>
    %72 = stablehlo.add %67, %71 : tensor<8xf32>
    %73 = stablehlo.broadcast_in_dim %arg10, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %74 = stablehlo.multiply %72, %73 : tensor<8xf32>
    %75 = stablehlo.add %arg7, %74 : tensor<8xf32>
    %76 = stablehlo.multiply %arg15, %66 : tensor<8xf32>
    %77 = stablehlo.multiply %arg6, %69 : tensor<8xf32>
    %78 = stablehlo.add %grad_scale, %77 : tensor<8xf32>
    %79 = stablehlo.add %76, %78 : tensor<8xf32>
    %80 = stablehlo.multiply %79, %73 : tensor<8xf32>
    %81 = stablehlo.add %arg6, %80 : tensor<8xf32>
    %82 = stablehlo.multiply %arg16, %66 : tensor<8xf32>
    %83 = stablehlo.multiply %arg5, %69 : tensor<8xf32>
    %84 = stablehlo.add %grad_offset, %83 : tensor<8xf32>
    %85 = stablehlo.add %82, %84 : tensor<8xf32>
    %86 = stablehlo.multiply %85, %73 : tensor<8xf32>
    %87 = stablehlo.add %arg5, %86 : tensor<8xf32>
    %88 = stablehlo.broadcast_in_dim %arg12, dims = [] : (tensor<f32>) -> tensor<10x128xf32>
    %89 = stablehlo.multiply %arg17, %88 : tensor<10x128xf32>
    %90 = stablehlo.transpose %27, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,4]{0,1}"} : (tensor<4x128xf32>) -> tensor<128x4xf32>
    %91 = stablehlo.dot_general %90, %44, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x4xf32>, tensor<4x10xf32>) -> tensor<128x10xf32>
    %92 = stablehlo.transpose %91, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[10,128]{0,1}"} : (tensor<128x10xf32>) -> tensor<10x128xf32>
    %93 = stablehlo.broadcast_in_dim %arg11, dims = [] : (tensor<f32>) -> tensor<10x128xf32>
    %94 = stablehlo.multiply %arg2, %93 : tensor<10x128xf32>
    %95 = stablehlo.add %92, %94 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[10,128]{0,1}"} : tensor<10x128xf32>
    %96 = stablehlo.add %89, %95 : tensor<10x128xf32>
    %97 = stablehlo.broadcast_in_dim %arg10, dims = [] : (tensor<f32>) -> tensor<10x128xf32>
    %98 = stablehlo.multiply %96, %97 : tensor<10x128xf32>
    %99 = stablehlo.add %arg2, %98 : tensor<10x128xf32>
    %100 = stablehlo.broadcast_in_dim %arg12, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %101 = stablehlo.multiply %arg18, %100 : tensor<10xf32>
    %102 = stablehlo.reduce(%44 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<4x10xf32>, tensor<f32>) -> tensor<10xf32>
    %103 = stablehlo.broadcast_in_dim %arg11, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %104 = stablehlo.multiply %arg1, %103 : tensor<10xf32>
    %105 = stablehlo.add %102, %104 : tensor<10xf32>
    %106 = stablehlo.add %101, %105 : tensor<10xf32>
    %107 = stablehlo.broadcast_in_dim %arg10, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %108 = stablehlo.multiply %106, %107 : tensor<10xf32>
    %109 = stablehlo.add %arg1, %108 : tensor<10xf32>
    %110 = stablehlo.multiply %batch_mean, %cst_0 : tensor<8xf32>
    %111 = stablehlo.multiply %arg4, %cst : tensor<8xf32>
    %112 = stablehlo.add %110, %111 : tensor<8xf32>
    %113 = stablehlo.multiply %batch_var, %cst_0 : tensor<8xf32>
    %114 = stablehlo.multiply %arg3, %cst : tensor<8xf32>
    %115 = stablehlo.add %113, %114 : tensor<8xf32>
    %116 = stablehlo.add %arg19, %c : tensor<i64>
    return %54, %65, %75, %81, %87, %99, %109, %62, %72, %79, %85, %96, %106, %112, %115, %116 : tensor<f32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<10x128xf32>, tensor<10xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<10x128xf32>, tensor<10xf32>, tensor<8xf32>, tensor<8xf32>, tensor<i64>
  }
}
