module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8xf32>, %arg4: tensor<8xf32>, %arg5: tensor<3x3x3x8xf32>, %arg6: tensor<10xf32>, %arg7: tensor<8x10xf32>, %arg8: tensor<8xf32>, %arg9: tensor<8xf32>, %arg10: tensor<8xf32>, %arg11: tensor<3x3x3x8xf32>, %arg12: tensor<10xf32>, %arg13: tensor<8x10xf32>, %arg14: tensor<4x8x8x3xf32>, %arg15: tensor<4xi32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]['batch_stats']['BatchNorm_0']['mean']"}, tensor<8xf32> {jax.result_info = "result[1]['batch_stats']['BatchNorm_0']['var']"}, tensor<8xf32> {jax.result_info = "result[1]['params']['BatchNorm_0']['bias']"}, tensor<8xf32> {jax.result_info = "result[1]['params']['BatchNorm_0']['scale']"}, tensor<8xf32> {jax.result_info = "result[1]['params']['Conv_0']['bias']"}, tensor<3x3x3x8xf32> {jax.result_info = "result[1]['params']['Conv_0']['kernel']"}, tensor<10xf32> {jax.result_info = "result[1]['params']['Dense_0']['bias']"}, tensor<8x10xf32> {jax.result_info = "result[1]['params']['Dense_0']['kernel']"}, tensor<8xf32> {jax.result_info = "result[2][0].trace['BatchNorm_0']['bias']"}, tensor<8xf32> {jax.result_info = "result[2][0].trace['BatchNorm_0']['scale']"}, tensor<8xf32> {jax.result_info = "result[2][0].trace['Conv_0']['bias']"}, tensor<3x3x3x8xf32> {jax.result_info = "result[2][0].trace['Conv_0']['kernel']"}, tensor<10xf32> {jax.result_info = "result[2][0].trace['Dense_0']['bias']"}, tensor<8x10xf32> {jax.result_info = "result[2][0].trace['Dense_0']['kernel']"}) {
    %0 = stablehlo.convolution(%arg14, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<4x8x8x8xf32>
    %1 = stablehlo.reshape %arg4 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x8x8x8xf32>
    %4 = chlo.square %3 : tensor<4x8x8x8xf32> -> tensor<4x8x8x8xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x8x8xf32>
    %6 = stablehlo.multiply %5, %3 : tensor<4x8x8x8xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_1 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %9 = stablehlo.divide %7, %8 : tensor<8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%4 init: %cst_2) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_3 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %12 = stablehlo.divide %10, %11 : tensor<8xf32>
    %13 = chlo.square %9 : tensor<8xf32> -> tensor<8xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %15 = stablehlo.multiply %14, %9 : tensor<8xf32>
    %16 = stablehlo.subtract %12, %13 : tensor<8xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %18 = stablehlo.maximum %17, %16 : tensor<8xf32>
    %19 = stablehlo.compare EQ, %16, %18, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %22 = stablehlo.select %19, %20, %21 : tensor<8xi1>, tensor<8xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %24 = stablehlo.compare EQ, %23, %18, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %cst_9 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %27 = stablehlo.select %24, %25, %26 : tensor<8xi1>, tensor<8xf32>
    %28 = stablehlo.divide %22, %27 : tensor<8xf32>
    %cst_11 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %30 = stablehlo.multiply %29, %arg0 : tensor<8xf32>
    %cst_12 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %32 = stablehlo.multiply %31, %9 : tensor<8xf32>
    %33 = stablehlo.add %30, %32 : tensor<8xf32>
    %cst_13 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %35 = stablehlo.multiply %34, %arg1 : tensor<8xf32>
    %cst_14 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %37 = stablehlo.multiply %36, %18 : tensor<8xf32>
    %38 = stablehlo.add %35, %37 : tensor<8xf32>
    %39 = stablehlo.broadcast_in_dim %9, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %40 = stablehlo.broadcast_in_dim %18, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %41 = stablehlo.broadcast_in_dim %39, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %42 = stablehlo.subtract %3, %41 : tensor<4x8x8x8xf32>
    %cst_15 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %44 = stablehlo.add %40, %43 : tensor<1x1x1x8xf32>
    %45 = stablehlo.rsqrt %44 : tensor<1x1x1x8xf32>
    %46 = stablehlo.divide %45, %44 : tensor<1x1x1x8xf32>
    %cst_16 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %48 = stablehlo.multiply %47, %46 : tensor<1x1x1x8xf32>
    %49 = stablehlo.reshape %arg3 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %50 = stablehlo.multiply %45, %49 : tensor<1x1x1x8xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %52 = stablehlo.multiply %42, %51 : tensor<4x8x8x8xf32>
    %53 = stablehlo.reshape %arg2 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %55 = stablehlo.add %52, %54 : tensor<4x8x8x8xf32>
    %56 = call @relu(%55) : (tensor<4x8x8x8xf32>) -> tensor<4x8x8x8xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x8x8x8xf32>
    %58 = stablehlo.compare GT, %55, %57, FLOAT : (tensor<4x8x8x8xf32>, tensor<4x8x8x8xf32>) -> tensor<4x8x8x8xi1>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x8x8x8xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %60 = stablehlo.reduce(%56 init: %cst_19) applies stablehlo.add across dimensions = [1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_20 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %62 = stablehlo.divide %60, %61 : tensor<4x8xf32>
    %63 = stablehlo.dot_general %62, %arg7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x10xf32>) -> tensor<4x10xf32>
    %64 = stablehlo.reshape %arg6 : (tensor<10xf32>) -> tensor<1x10xf32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<4x10xf32>
    %66 = stablehlo.add %63, %65 : tensor<4x10xf32>
    %67 = stablehlo.broadcast_in_dim %arg15, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %68:2 = call @take_along_axis(%66, %67) : (tensor<4x10xf32>, tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1x1xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %69:2 = call @_take(%68#0, %c) : (tensor<4x1xf32>, tensor<i32>) -> (tensor<4xf32>, tensor<1xi32>)
    %cst_21 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %70 = stablehlo.reduce(%66 init: %cst_21) applies stablehlo.maximum across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %71 = stablehlo.reshape %70 : (tensor<4xf32>) -> tensor<4x1xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x10xf32>
    %73 = stablehlo.compare EQ, %66, %72, FLOAT : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xi1>
    %74 = stablehlo.convert %73 : (tensor<4x10xi1>) -> tensor<4x10xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.reduce(%74 init: %cst_22) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_23 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %77 = stablehlo.maximum %76, %70 : tensor<4xf32>
    %78 = stablehlo.compare EQ, %70, %77, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %cst_24 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %81 = stablehlo.select %78, %79, %80 : tensor<4xi1>, tensor<4xf32>
    %cst_26 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %83 = stablehlo.compare EQ, %82, %77, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %cst_27 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %84 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_28 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %86 = stablehlo.select %83, %84, %85 : tensor<4xi1>, tensor<4xf32>
    %87 = stablehlo.divide %81, %86 : tensor<4xf32>
    %88 = stablehlo.is_finite %77 : (tensor<4xf32>) -> tensor<4xi1>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %90 = stablehlo.select %88, %77, %89 : tensor<4xi1>, tensor<4xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %92 = stablehlo.broadcast_in_dim %90, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %93 = stablehlo.broadcast_in_dim %92, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x10xf32>
    %94 = stablehlo.subtract %66, %93 : tensor<4x10xf32>
    %95 = stablehlo.exponential %94 : tensor<4x10xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %96 = stablehlo.reduce(%95 init: %cst_31) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %97 = stablehlo.sign %96 : tensor<4xf32>
    %98 = stablehlo.abs %96 : tensor<4xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %99 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %100 = stablehlo.compare GE, %96, %99, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %101 = stablehlo.log %98 : tensor<4xf32>
    %102 = stablehlo.add %101, %90 : tensor<4xf32>
    %103 = stablehlo.subtract %102, %69#0 : tensor<4xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %104 = stablehlo.reduce(%103 init: %cst_33) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %cst_34 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %105 = stablehlo.divide %104, %cst_34 : tensor<f32>
    %cst_35 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_36 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %106 = stablehlo.divide %cst_35, %cst_36 : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %108 = stablehlo.negate %107 : tensor<4xf32>
    %109 = stablehlo.divide %107, %98 : tensor<4xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %110 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %111 = stablehlo.select %100, %110, %109 : tensor<4xi1>, tensor<4xf32>
    %112 = stablehlo.select %100, %109, %110 : tensor<4xi1>, tensor<4xf32>
    %113 = stablehlo.negate %111 : tensor<4xf32>
    %114 = stablehlo.add %112, %113 : tensor<4xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0] : (tensor<4xf32>) -> tensor<4x10xf32>
    %116 = stablehlo.multiply %115, %95 : tensor<4x10xf32>
    %117 = call @_take_0(%69#1, %108) : (tensor<1xi32>, tensor<4xf32>) -> tensor<4x1xf32>
    %118 = call @take_along_axis_1(%68#1, %117) : (tensor<4x1x1xi32>, tensor<4x1xf32>) -> tensor<4x10xf32>
    %119 = stablehlo.add %116, %118 : tensor<4x10xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %120 = stablehlo.reduce(%119 init: %cst_38) applies stablehlo.add across dimensions = [0] : (tensor<4x10xf32>, tensor<f32>) -> tensor<10xf32>
    %121 = stablehlo.reshape %120 : (tensor<10xf32>) -> tensor<1x10xf32>
    %122 = stablehlo.reshape %121 : (tensor<1x10xf32>) -> tensor<10xf32>
    %123 = stablehlo.dot_general %119, %62, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x10xf32>, tensor<4x8xf32>) -> tensor<10x8xf32>
    %124 = stablehlo.transpose %123, dims = [1, 0] : (tensor<10x8xf32>) -> tensor<8x10xf32>
    %125 = stablehlo.dot_general %119, %arg7, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x10xf32>, tensor<8x10xf32>) -> tensor<4x8xf32>
    %cst_39 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %127 = stablehlo.divide %125, %126 : tensor<4x8xf32>
    %128 = stablehlo.broadcast_in_dim %127, dims = [0, 3] : (tensor<4x8xf32>) -> tensor<4x8x8x8xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %129 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<4x8x8x8xf32>
    %130 = stablehlo.select %58, %128, %129 : tensor<4x8x8x8xi1>, tensor<4x8x8x8xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %131 = stablehlo.reduce(%130 init: %cst_41) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %132 = stablehlo.reshape %131 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %133 = stablehlo.reshape %132 : (tensor<1x1x1x8xf32>) -> tensor<8xf32>
    %134 = stablehlo.multiply %42, %130 : tensor<4x8x8x8xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %135 = stablehlo.reduce(%134 init: %cst_42) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %136 = stablehlo.reshape %135 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %137 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %138 = stablehlo.multiply %130, %137 : tensor<4x8x8x8xf32>
    %139 = stablehlo.multiply %45, %136 : tensor<1x1x1x8xf32>
    %140 = stablehlo.multiply %136, %49 : tensor<1x1x1x8xf32>
    %141 = stablehlo.reshape %139 : (tensor<1x1x1x8xf32>) -> tensor<8xf32>
    %142 = stablehlo.multiply %140, %48 : tensor<1x1x1x8xf32>
    %143 = stablehlo.negate %138 : tensor<4x8x8x8xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %144 = stablehlo.reduce(%143 init: %cst_43) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %145 = stablehlo.reshape %144 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %146 = stablehlo.reduce(%142 init: %cst_44) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %147 = stablehlo.reduce(%145 init: %cst_45) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %148 = stablehlo.multiply %146, %28 : tensor<8xf32>
    %149 = stablehlo.negate %148 : tensor<8xf32>
    %150 = stablehlo.multiply %149, %15 : tensor<8xf32>
    %151 = stablehlo.add %147, %150 : tensor<8xf32>
    %cst_46 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %152 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %153 = stablehlo.divide %148, %152 : tensor<8xf32>
    %154 = stablehlo.broadcast_in_dim %153, dims = [3] : (tensor<8xf32>) -> tensor<4x8x8x8xf32>
    %cst_47 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %155 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %156 = stablehlo.divide %151, %155 : tensor<8xf32>
    %157 = stablehlo.broadcast_in_dim %156, dims = [3] : (tensor<8xf32>) -> tensor<4x8x8x8xf32>
    %158 = stablehlo.add %138, %157 : tensor<4x8x8x8xf32>
    %159 = stablehlo.multiply %154, %6 : tensor<4x8x8x8xf32>
    %160 = stablehlo.add %158, %159 : tensor<4x8x8x8xf32>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %161 = stablehlo.reduce(%160 init: %cst_48) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %162 = stablehlo.reshape %161 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %163 = stablehlo.reshape %162 : (tensor<1x1x1x8xf32>) -> tensor<8xf32>
    %164 = stablehlo.convolution(%arg14, %160) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8x8x3xf32>, tensor<4x8x8x8xf32>) -> tensor<3x3x3x8xf32>
    %cst_49 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %165 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %166 = stablehlo.multiply %165, %arg8 : tensor<8xf32>
    %167 = stablehlo.add %133, %166 : tensor<8xf32>
    %cst_50 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %168 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %169 = stablehlo.multiply %168, %arg9 : tensor<8xf32>
    %170 = stablehlo.add %141, %169 : tensor<8xf32>
    %cst_51 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %171 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %172 = stablehlo.multiply %171, %arg10 : tensor<8xf32>
    %173 = stablehlo.add %163, %172 : tensor<8xf32>
    %cst_52 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %174 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<3x3x3x8xf32>
    %175 = stablehlo.multiply %174, %arg11 : tensor<3x3x3x8xf32>
    %176 = stablehlo.add %164, %175 : tensor<3x3x3x8xf32>
    %cst_53 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %177 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %178 = stablehlo.multiply %177, %arg12 : tensor<10xf32>
    %179 = stablehlo.add %122, %178 : tensor<10xf32>
    %cst_54 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %180 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %181 = stablehlo.multiply %180, %arg13 : tensor<8x10xf32>
    %182 = stablehlo.add %124, %181 : tensor<8x10xf32>
    %cst_55 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %183 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %184 = stablehlo.multiply %183, %167 : tensor<8xf32>
    %cst_56 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %185 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %186 = stablehlo.multiply %185, %170 : tensor<8xf32>
    %cst_57 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %187 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %188 = stablehlo.multiply %187, %173 : tensor<8xf32>
    %cst_58 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %189 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<3x3x3x8xf32>
    %190 = stablehlo.multiply %189, %176 : tensor<3x3x3x8xf32>
    %cst_59 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %191 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %192 = stablehlo.multiply %191, %179 : tensor<10xf32>
    %cst_60 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %193 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %194 = stablehlo.multiply %193, %182 : tensor<8x10xf32>
    %195 = stablehlo.add %arg2, %184 : tensor<8xf32>
    %196 = stablehlo.add %arg3, %186 : tensor<8xf32>
    %197 = stablehlo.add %arg4, %188 : tensor<8xf32>
    %198 = stablehlo.add %arg5, %190 : tensor<3x3x3x8xf32>
    %199 = stablehlo.add %arg6, %192 : tensor<10xf32>
    %200 = stablehlo.add %arg7, %194 : tensor<8x10xf32>
    return %105, %33, %38, %195, %196, %197, %198, %199, %200, %167, %170, %173, %176, %179, %182 : tensor<f32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<3x3x3x8xf32>, tensor<10xf32>, tensor<8x10xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<3x3x3x8xf32>, tensor<10xf32>, tensor<8x10xf32>
  }
  func.func private @relu(%arg0: tensor<4x8x8x8xf32>) -> tensor<4x8x8x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x8x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x8x8x8xf32>
    return %1 : tensor<4x8x8x8xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<4x10xf32>, %arg1: tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<4x1xi1>, tensor<4x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<4x1xi32>) -> tensor<4x1x1xi32>
    %c_1 = stablehlo.constant dense<9> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<4x1x1xi32>, tensor<4x1x1xi32>) -> tensor<4x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<4x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<4x1x1xi32>, tensor<4x1x1xi32>) -> tensor<4x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<4x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<4x1x1xi1>, tensor<i1>) -> tensor<4x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x10xf32>, tensor<4x1x1xi32>) -> tensor<4x1xf32>
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
  func.func private @take_along_axis_1(%arg0: tensor<4x1x1xi32>, %arg1: tensor<4x1xf32>) -> tensor<4x10xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x10xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x10xf32>, tensor<4x1x1xi32>, tensor<4x1xf32>) -> tensor<4x10xf32>
    return %1 : tensor<4x10xf32>
  }
}
