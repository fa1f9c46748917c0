module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x3x3x3xf32>, %arg1: tensor<6x1x1xf32>, %arg2: tensor<5x6xf32>, %arg3: tensor<5xf32>, %arg4: tensor<i32>, %arg5: tensor<6x3x3x3xf32>, %arg6: tensor<6x1x1xf32>, %arg7: tensor<5x6xf32>, %arg8: tensor<5xf32>, %arg9: tensor<6x3x3x3xf32>, %arg10: tensor<6x1x1xf32>, %arg11: tensor<5x6xf32>, %arg12: tensor<5xf32>, %arg13: tensor<4x3x8x8xf32>, %arg14: tensor<4xi32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<6x3x3x3xf32> {jax.result_info = "result[1].layers[0].weight"}, tensor<6x1x1xf32> {jax.result_info = "result[1].layers[0].bias"}, tensor<5x6xf32> {jax.result_info = "result[1].layers[3].weight"}, tensor<5xf32> {jax.result_info = "result[1].layers[3].bias"}, tensor<i32> {jax.result_info = "result[2][0].count"}, tensor<6x3x3x3xf32> {jax.result_info = "result[2][0].mu.layers[0].weight"}, tensor<6x1x1xf32> {jax.result_info = "result[2][0].mu.layers[0].bias"}, tensor<5x6xf32> {jax.result_info = "result[2][0].mu.layers[3].weight"}, tensor<5xf32> {jax.result_info = "result[2][0].mu.layers[3].bias"}, tensor<6x3x3x3xf32> {jax.result_info = "result[2][0].nu.layers[0].weight"}, tensor<6x1x1xf32> {jax.result_info = "result[2][0].nu.layers[0].bias"}, tensor<5x6xf32> {jax.result_info = "result[2][0].nu.layers[3].weight"}, tensor<5xf32> {jax.result_info = "result[2][0].nu.layers[3].bias"}) {
    %0 = stablehlo.broadcast_in_dim %arg13, dims = [0, 2, 3, 4] : (tensor<4x3x8x8xf32>) -> tensor<4x1x3x8x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<4x1x3x8x8xf32>) -> tensor<4x3x8x8xf32>
    %2 = stablehlo.convolution(%1, %arg0) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x3x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<4x6x8x8xf32>
    %3 = stablehlo.reshape %2 : (tensor<4x6x8x8xf32>) -> tensor<4x1x6x8x8xf32>
    %4 = stablehlo.reshape %3 : (tensor<4x1x6x8x8xf32>) -> tensor<4x6x8x8xf32>
    %5 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<6x1x1xf32>) -> tensor<1x6x1x1xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2, 3] : (tensor<1x6x1x1xf32>) -> tensor<4x6x8x8xf32>
    %7 = stablehlo.add %4, %6 : tensor<4x6x8x8xf32>
    %8 = call @relu(%7) : (tensor<4x6x8x8xf32>) -> tensor<4x6x8x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x6x8x8xf32>
    %10 = stablehlo.compare GT, %7, %9, FLOAT : (tensor<4x6x8x8xf32>, tensor<4x6x8x8xf32>) -> tensor<4x6x8x8xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x8x8xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [1, 2, 3] : (tensor<6x8x8xf32>) -> tensor<4x6x8x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%8 init: %cst_1) applies stablehlo.add across dimensions = [2, 3] : (tensor<4x6x8x8xf32>, tensor<f32>) -> tensor<4x6xf32>
    %cst_2 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %15 = stablehlo.divide %13, %14 : tensor<4x6xf32>
    %16 = stablehlo.dot_general %arg2, %15, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<5x6xf32>, tensor<4x6xf32>) -> tensor<5x4xf32>
    %17 = stablehlo.transpose %16, dims = [1, 0] : (tensor<5x4xf32>) -> tensor<4x5xf32>
    %18 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
    %20 = stablehlo.add %17, %19 : tensor<4x5xf32>
    %21 = stablehlo.broadcast_in_dim %arg14, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %22:2 = call @take_along_axis(%20, %21) : (tensor<4x5xf32>, tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1x1xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %23:2 = call @_take(%22#0, %c) : (tensor<4x1xf32>, tensor<i32>) -> (tensor<4xf32>, tensor<1xi32>)
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %24 = stablehlo.reduce(%20 init: %cst_3) applies stablehlo.maximum across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
    %25 = stablehlo.reshape %24 : (tensor<4xf32>) -> tensor<4x1xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x5xf32>
    %27 = stablehlo.compare EQ, %20, %26, FLOAT : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xi1>
    %28 = stablehlo.convert %27 : (tensor<4x5xi1>) -> tensor<4x5xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.reduce(%28 init: %cst_4) applies stablehlo.add across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %31 = stablehlo.maximum %30, %24 : tensor<4xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %33 = stablehlo.compare GT, %24, %32, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %35 = stablehlo.compare EQ, %24, %34, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_10 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %39 = stablehlo.select %35, %38, %37 : tensor<4xi1>, tensor<4xf32>
    %40 = stablehlo.select %33, %36, %39 : tensor<4xi1>, tensor<4xf32>
    %41 = stablehlo.is_finite %31 : (tensor<4xf32>) -> tensor<4xi1>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %43 = stablehlo.select %41, %31, %42 : tensor<4xi1>, tensor<4xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %45 = stablehlo.broadcast_in_dim %43, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x5xf32>
    %47 = stablehlo.subtract %20, %46 : tensor<4x5xf32>
    %48 = stablehlo.exponential %47 : tensor<4x5xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %49 = stablehlo.reduce(%48 init: %cst_13) applies stablehlo.add across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
    %50 = stablehlo.sign %49 : tensor<4xf32>
    %51 = stablehlo.abs %49 : tensor<4xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %53 = stablehlo.compare GE, %49, %52, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %54 = stablehlo.log %51 : tensor<4xf32>
    %55 = stablehlo.add %54, %43 : tensor<4xf32>
    %56 = stablehlo.subtract %55, %23#0 : tensor<4xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.reduce(%56 init: %cst_15) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %cst_16 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %58 = stablehlo.divide %57, %cst_16 : tensor<f32>
    %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_18 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %59 = stablehlo.divide %cst_17, %cst_18 : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %61 = stablehlo.negate %60 : tensor<4xf32>
    %62 = stablehlo.divide %60, %51 : tensor<4xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %64 = stablehlo.select %53, %63, %62 : tensor<4xi1>, tensor<4xf32>
    %65 = stablehlo.select %53, %62, %63 : tensor<4xi1>, tensor<4xf32>
    %66 = stablehlo.negate %64 : tensor<4xf32>
    %67 = stablehlo.add %65, %66 : tensor<4xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0] : (tensor<4xf32>) -> tensor<4x5xf32>
    %69 = stablehlo.multiply %68, %48 : tensor<4x5xf32>
    %70 = call @_take_0(%23#1, %61) : (tensor<1xi32>, tensor<4xf32>) -> tensor<4x1xf32>
    %71 = call @take_along_axis_1(%22#1, %70) : (tensor<4x1x1xi32>, tensor<4x1xf32>) -> tensor<4x5xf32>
    %72 = stablehlo.add %69, %71 : tensor<4x5xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %73 = stablehlo.reduce(%72 init: %cst_20) applies stablehlo.add across dimensions = [0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>
    %74 = stablehlo.reshape %73 : (tensor<5xf32>) -> tensor<1x5xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.reduce(%74 init: %cst_21) applies stablehlo.add across dimensions = [0] : (tensor<1x5xf32>, tensor<f32>) -> tensor<5xf32>
    %76 = stablehlo.transpose %72, dims = [1, 0] : (tensor<4x5xf32>) -> tensor<5x4xf32>
    %77 = stablehlo.dot_general %76, %arg2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x4xf32>, tensor<5x6xf32>) -> tensor<4x6xf32>
    %78 = stablehlo.dot_general %76, %15, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x4xf32>, tensor<4x6xf32>) -> tensor<5x6xf32>
    %cst_22 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %80 = stablehlo.divide %77, %79 : tensor<4x6xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1] : (tensor<4x6xf32>) -> tensor<4x6x8x8xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4x6x8x8xf32>
    %83 = stablehlo.select %10, %81, %82 : tensor<4x6x8x8xi1>, tensor<4x6x8x8xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %84 = stablehlo.reduce(%83 init: %cst_24) applies stablehlo.add across dimensions = [0, 2, 3] : (tensor<4x6x8x8xf32>, tensor<f32>) -> tensor<6xf32>
    %85 = stablehlo.reshape %84 : (tensor<6xf32>) -> tensor<1x6x1x1xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %86 = stablehlo.reduce(%85 init: %cst_25) applies stablehlo.add across dimensions = [0, 2, 3] : (tensor<1x6x1x1xf32>, tensor<f32>) -> tensor<6xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0] : (tensor<6xf32>) -> tensor<6x1x1xf32>
    %88 = stablehlo.broadcast_in_dim %83, dims = [0, 2, 3, 4] : (tensor<4x6x8x8xf32>) -> tensor<4x1x6x8x8xf32>
    %89 = stablehlo.reshape %88 : (tensor<4x1x6x8x8xf32>) -> tensor<4x6x8x8xf32>
    %90 = stablehlo.convolution(%1, %89) dim_numbers = [f, b, 0, 1]x[i, o, 0, 1]->[f, b, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x3x8x8xf32>, tensor<4x6x8x8xf32>) -> tensor<6x3x3x3xf32>
    %cst_26 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<6x3x3x3xf32>
    %92 = stablehlo.multiply %91, %90 : tensor<6x3x3x3xf32>
    %cst_27 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<6x3x3x3xf32>
    %94 = stablehlo.multiply %93, %arg5 : tensor<6x3x3x3xf32>
    %95 = stablehlo.add %92, %94 : tensor<6x3x3x3xf32>
    %cst_28 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %96 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<6x1x1xf32>
    %97 = stablehlo.multiply %96, %87 : tensor<6x1x1xf32>
    %cst_29 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<6x1x1xf32>
    %99 = stablehlo.multiply %98, %arg6 : tensor<6x1x1xf32>
    %100 = stablehlo.add %97, %99 : tensor<6x1x1xf32>
    %cst_30 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %102 = stablehlo.multiply %101, %78 : tensor<5x6xf32>
    %cst_31 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %104 = stablehlo.multiply %103, %arg7 : tensor<5x6xf32>
    %105 = stablehlo.add %102, %104 : tensor<5x6xf32>
    %cst_32 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %106 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %107 = stablehlo.multiply %106, %75 : tensor<5xf32>
    %cst_33 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %109 = stablehlo.multiply %108, %arg8 : tensor<5xf32>
    %110 = stablehlo.add %107, %109 : tensor<5xf32>
    %111 = stablehlo.multiply %90, %90 : tensor<6x3x3x3xf32>
    %cst_34 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %112 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<6x3x3x3xf32>
    %113 = stablehlo.multiply %112, %111 : tensor<6x3x3x3xf32>
    %cst_35 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<6x3x3x3xf32>
    %115 = stablehlo.multiply %114, %arg9 : tensor<6x3x3x3xf32>
    %116 = stablehlo.add %113, %115 : tensor<6x3x3x3xf32>
    %117 = stablehlo.multiply %87, %87 : tensor<6x1x1xf32>
    %cst_36 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<6x1x1xf32>
    %119 = stablehlo.multiply %118, %117 : tensor<6x1x1xf32>
    %cst_37 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %120 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<6x1x1xf32>
    %121 = stablehlo.multiply %120, %arg10 : tensor<6x1x1xf32>
    %122 = stablehlo.add %119, %121 : tensor<6x1x1xf32>
    %123 = stablehlo.multiply %78, %78 : tensor<5x6xf32>
    %cst_38 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %125 = stablehlo.multiply %124, %123 : tensor<5x6xf32>
    %cst_39 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %127 = stablehlo.multiply %126, %arg11 : tensor<5x6xf32>
    %128 = stablehlo.add %125, %127 : tensor<5x6xf32>
    %129 = stablehlo.multiply %75, %75 : tensor<5xf32>
    %cst_40 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %130 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %131 = stablehlo.multiply %130, %129 : tensor<5xf32>
    %cst_41 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %132 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %133 = stablehlo.multiply %132, %arg12 : tensor<5xf32>
    %134 = stablehlo.add %131, %133 : tensor<5xf32>
    %c_42 = stablehlo.constant dense<2147483647> : tensor<i32>
    %135 = stablehlo.compare LT, %arg4, %c_42, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_43 = stablehlo.constant dense<1> : tensor<i32>
    %136 = stablehlo.add %arg4, %c_43 : tensor<i32>
    %c_44 = stablehlo.constant dense<2147483647> : tensor<i32>
    %137 = call @_where_2(%135, %136, %c_44) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_45 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %138 = stablehlo.convert %137 : (tensor<i32>) -> tensor<f32>
    %139 = stablehlo.convert %137 : (tensor<i32>) -> tensor<f32>
    %140 = stablehlo.power %cst_45, %139 : tensor<f32>
    %cst_46 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %141 = stablehlo.subtract %cst_46, %140 : tensor<f32>
    %142 = stablehlo.broadcast_in_dim %141, dims = [] : (tensor<f32>) -> tensor<6x3x3x3xf32>
    %143 = stablehlo.divide %95, %142 : tensor<6x3x3x3xf32>
    %144 = stablehlo.broadcast_in_dim %141, dims = [] : (tensor<f32>) -> tensor<6x1x1xf32>
    %145 = stablehlo.divide %100, %144 : tensor<6x1x1xf32>
    %146 = stablehlo.broadcast_in_dim %141, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %147 = stablehlo.divide %105, %146 : tensor<5x6xf32>
    %148 = stablehlo.broadcast_in_dim %141, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %149 = stablehlo.divide %110, %148 : tensor<5xf32>
    %cst_47 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %150 = stablehlo.convert %137 : (tensor<i32>) -> tensor<f32>
    %151 = stablehlo.convert %137 : (tensor<i32>) -> tensor<f32>
    %152 = stablehlo.power %cst_47, %151 : tensor<f32>
    %cst_48 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %153 = stablehlo.subtract %cst_48, %152 : tensor<f32>
    %154 = stablehlo.broadcast_in_dim %153, dims = [] : (tensor<f32>) -> tensor<6x3x3x3xf32>
    %155 = stablehlo.divide %116, %154 : tensor<6x3x3x3xf32>
    %156 = stablehlo.broadcast_in_dim %153, dims = [] : (tensor<f32>) -> tensor<6x1x1xf32>
    %157 = stablehlo.divide %122, %156 : tensor<6x1x1xf32>
    %158 = stablehlo.broadcast_in_dim %153, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %159 = stablehlo.divide %128, %158 : tensor<5x6xf32>
    %160 = stablehlo.broadcast_in_dim %153, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %161 = stablehlo.divide %134, %160 : tensor<5xf32>
    %cst_49 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %162 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<6x3x3x3xf32>
    %163 = stablehlo.add %155, %162 : tensor<6x3x3x3xf32>
    %164 = stablehlo.sqrt %163 : tensor<6x3x3x3xf32>
    %cst_50 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %165 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<6x3x3x3xf32>
    %166 = stablehlo.add %164, %165 : tensor<6x3x3x3xf32>
    %167 = stablehlo.divide %143, %166 : tensor<6x3x3x3xf32>
    %cst_51 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %168 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<6x1x1xf32>
    %169 = stablehlo.add %157, %168 : tensor<6x1x1xf32>
    %170 = stablehlo.sqrt %169 : tensor<6x1x1xf32>
    %cst_52 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %171 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<6x1x1xf32>
    %172 = stablehlo.add %170, %171 : tensor<6x1x1xf32>
    %173 = stablehlo.divide %145, %172 : tensor<6x1x1xf32>
    %cst_53 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %174 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %175 = stablehlo.add %159, %174 : tensor<5x6xf32>
    %176 = stablehlo.sqrt %175 : tensor<5x6xf32>
    %cst_54 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %177 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %178 = stablehlo.add %176, %177 : tensor<5x6xf32>
    %179 = stablehlo.divide %147, %178 : tensor<5x6xf32>
    %cst_55 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %180 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %181 = stablehlo.add %161, %180 : tensor<5xf32>
    %182 = stablehlo.sqrt %181 : tensor<5xf32>
    %cst_56 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %183 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %184 = stablehlo.add %182, %183 : tensor<5xf32>
    %185 = stablehlo.divide %149, %184 : tensor<5xf32>
    %cst_57 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %186 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<6x3x3x3xf32>
    %187 = stablehlo.multiply %186, %arg0 : tensor<6x3x3x3xf32>
    %188 = stablehlo.add %167, %187 : tensor<6x3x3x3xf32>
    %cst_58 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %189 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<6x1x1xf32>
    %190 = stablehlo.multiply %189, %arg1 : tensor<6x1x1xf32>
    %191 = stablehlo.add %173, %190 : tensor<6x1x1xf32>
    %cst_59 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %192 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %193 = stablehlo.multiply %192, %arg2 : tensor<5x6xf32>
    %194 = stablehlo.add %179, %193 : tensor<5x6xf32>
    %cst_60 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %195 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %196 = stablehlo.multiply %195, %arg3 : tensor<5xf32>
    %197 = stablehlo.add %185, %196 : tensor<5xf32>
    %cst_61 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %198 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<6x3x3x3xf32>
    %199 = stablehlo.multiply %198, %188 : tensor<6x3x3x3xf32>
    %cst_62 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %200 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<6x1x1xf32>
    %201 = stablehlo.multiply %200, %191 : tensor<6x1x1xf32>
    %cst_63 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %202 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %203 = stablehlo.multiply %202, %194 : tensor<5x6xf32>
    %cst_64 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %204 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %205 = stablehlo.multiply %204, %197 : tensor<5xf32>
    %206 = stablehlo.add %arg0, %199 : tensor<6x3x3x3xf32>
    %207 = stablehlo.add %arg1, %201 : tensor<6x1x1xf32>
    %208 = stablehlo.add %arg2, %203 : tensor<5x6xf32>
    %209 = stablehlo.add %arg3, %205 : tensor<5xf32>
    return %58, %206, %207, %208, %209, %137, %95, %100, %105, %110, %116, %122, %128, %134 : tensor<f32>, tensor<6x3x3x3xf32>, tensor<6x1x1xf32>, tensor<5x6xf32>, tensor<5xf32>, tensor<i32>, tensor<6x3x3x3xf32>, tensor<6x1x1xf32>, tensor<5x6xf32>, tensor<5xf32>, tensor<6x3x3x3xf32>, tensor<6x1x1xf32>, tensor<5x6xf32>, tensor<5xf32>
  }
  func.func private @relu(%arg0: tensor<4x6x8x8xf32>) -> tensor<4x6x8x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x6x8x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x6x8x8xf32>
    return %1 : tensor<4x6x8x8xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<4x5xf32>, %arg1: tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi1>
    %c_0 = stablehlo.constant dense<5> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<4x1xi1>, tensor<4x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<4x1xi32>) -> tensor<4x1x1xi32>
    %c_1 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<4x1x1xi32>, tensor<4x1x1xi32>) -> tensor<4x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<4x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<4x1x1xi32>, tensor<4x1x1xi32>) -> tensor<4x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<4x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<4x1x1xi1>, tensor<i1>) -> tensor<4x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x5xf32>, tensor<4x1x1xi32>) -> tensor<4x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<4x1xi1>, tensor<4x1xf32>
    return %15, %5 : tensor<4x1xf32>, tensor<4x1x1xi32>
  }
  func.func private @_take(%arg0: tensor<4x1xf32>, %arg1: tensor<i32>) -> (tensor<4xf32>, tensor<1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %arg1, %c_0 : tensor<i32>
    %2 = call @_where(%0, %1, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<1xi32>
    %4 = stablehlo.convert %3 : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.compare GE, %4, %5, SIGNED : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    %7 = stablehlo.compare LE, %4, %c_1, SIGNED : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    %8 = stablehlo.and %6, %7 : tensor<1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %9 = stablehlo.reduce(%8 init: %c_3) applies stablehlo.and across dimensions = [0] : (tensor<1xi1>, tensor<i1>) -> tensor<i1>
    %10 = "stablehlo.gather"(%arg0, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = false, slice_sizes = array<i64: 4, 1>}> : (tensor<4x1xf32>, tensor<1xi32>) -> tensor<4xf32>
    %11 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %13 = stablehlo.select %11, %10, %12 : tensor<4xi1>, tensor<4xf32>
    return %13, %3 : tensor<4xf32>, tensor<1xi32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @_take_0(%arg0: tensor<1xi32>, %arg1: tensor<4xf32>) -> tensor<4x1xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x1xf32>, tensor<1xi32>, tensor<4xf32>) -> tensor<4x1xf32>
    return %1 : tensor<4x1xf32>
  }
  func.func private @take_along_axis_1(%arg0: tensor<4x1x1xi32>, %arg1: tensor<4x1xf32>) -> tensor<4x5xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x5xf32>, tensor<4x1x1xi32>, tensor<4x1xf32>) -> tensor<4x5xf32>
    return %1 : tensor<4x5xf32>
  }
  func.func private @_where_2(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
