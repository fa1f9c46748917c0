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
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %20 = stablehlo.compare GT, %16, %19, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %22 = stablehlo.compare EQ, %16, %21, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %cst_10 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %26 = stablehlo.select %22, %25, %24 : tensor<8xi1>, tensor<8xf32>
    %27 = stablehlo.select %20, %23, %26 : tensor<8xi1>, tensor<8xf32>
    %cst_11 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %29 = stablehlo.multiply %28, %arg0 : tensor<8xf32>
    %cst_12 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %31 = stablehlo.multiply %30, %9 : tensor<8xf32>
    %32 = stablehlo.add %29, %31 : tensor<8xf32>
    %cst_13 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %34 = stablehlo.multiply %33, %arg1 : tensor<8xf32>
    %cst_14 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %36 = stablehlo.multiply %35, %18 : tensor<8xf32>
    %37 = stablehlo.add %34, %36 : tensor<8xf32>
    %38 = stablehlo.broadcast_in_dim %9, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %39 = stablehlo.broadcast_in_dim %18, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %40 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %41 = stablehlo.subtract %3, %40 : tensor<4x8x8x8xf32>
    %cst_15 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %43 = stablehlo.add %39, %42 : tensor<1x1x1x8xf32>
    %44 = stablehlo.rsqrt %43 : tensor<1x1x1x8xf32>
    %45 = stablehlo.divide %44, %43 : tensor<1x1x1x8xf32>
    %cst_16 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %47 = stablehlo.multiply %46, %45 : tensor<1x1x1x8xf32>
    %48 = stablehlo.reshape %arg3 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %49 = stablehlo.multiply %44, %48 : tensor<1x1x1x8xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %51 = stablehlo.multiply %41, %50 : tensor<4x8x8x8xf32>
    %52 = stablehlo.reshape %arg2 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %54 = stablehlo.add %51, %53 : tensor<4x8x8x8xf32>
    %55 = call @relu(%54) : (tensor<4x8x8x8xf32>) -> tensor<4x8x8x8xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x8x8x8xf32>
    %57 = stablehlo.compare GT, %54, %56, FLOAT : (tensor<4x8x8x8xf32>, tensor<4x8x8x8xf32>) -> tensor<4x8x8x8xi1>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x8x8x8xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.reduce(%55 init: %cst_19) applies stablehlo.add across dimensions = [1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_20 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %61 = stablehlo.divide %59, %60 : tensor<4x8xf32>
    %62 = stablehlo.dot_general %61, %arg7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x10xf32>) -> tensor<4x10xf32>
    %63 = stablehlo.reshape %arg6 : (tensor<10xf32>) -> tensor<1x10xf32>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<4x10xf32>
    %65 = stablehlo.add %62, %64 : tensor<4x10xf32>
    %66 = stablehlo.broadcast_in_dim %arg15, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %67:2 = call @take_along_axis(%65, %66) : (tensor<4x10xf32>, tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1x1xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %68:2 = call @_take(%67#0, %c) : (tensor<4x1xf32>, tensor<i32>) -> (tensor<4xf32>, tensor<1xi32>)
    %cst_21 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %69 = stablehlo.reduce(%65 init: %cst_21) applies stablehlo.maximum across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %70 = stablehlo.reshape %69 : (tensor<4xf32>) -> tensor<4x1xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x10xf32>
    %72 = stablehlo.compare EQ, %65, %71, FLOAT : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xi1>
    %73 = stablehlo.convert %72 : (tensor<4x10xi1>) -> tensor<4x10xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %74 = stablehlo.reduce(%73 init: %cst_22) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_23 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %76 = stablehlo.maximum %75, %69 : tensor<4xf32>
    %cst_24 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %78 = stablehlo.compare GT, %69, %77, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %cst_25 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %80 = stablehlo.compare EQ, %69, %79, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_28 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %84 = stablehlo.select %80, %83, %82 : tensor<4xi1>, tensor<4xf32>
    %85 = stablehlo.select %78, %81, %84 : tensor<4xi1>, tensor<4xf32>
    %86 = stablehlo.is_finite %76 : (tensor<4xf32>) -> tensor<4xi1>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %88 = stablehlo.select %86, %76, %87 : tensor<4xi1>, tensor<4xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %90 = stablehlo.broadcast_in_dim %88, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x10xf32>
    %92 = stablehlo.subtract %65, %91 : tensor<4x10xf32>
    %93 = stablehlo.exponential %92 : tensor<4x10xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %94 = stablehlo.reduce(%93 init: %cst_31) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %95 = stablehlo.sign %94 : tensor<4xf32>
    %96 = stablehlo.abs %94 : tensor<4xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %98 = stablehlo.compare GE, %94, %97, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %99 = stablehlo.log %96 : tensor<4xf32>
    %100 = stablehlo.add %99, %88 : tensor<4xf32>
    %101 = stablehlo.subtract %100, %68#0 : tensor<4xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %102 = stablehlo.reduce(%101 init: %cst_33) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %cst_34 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %103 = stablehlo.divide %102, %cst_34 : tensor<f32>
    %cst_35 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_36 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %104 = stablehlo.divide %cst_35, %cst_36 : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %104, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %106 = stablehlo.negate %105 : tensor<4xf32>
    %107 = stablehlo.divide %105, %96 : tensor<4xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %109 = stablehlo.select %98, %108, %107 : tensor<4xi1>, tensor<4xf32>
    %110 = stablehlo.select %98, %107, %108 : tensor<4xi1>, tensor<4xf32>
    %111 = stablehlo.negate %109 : tensor<4xf32>
    %112 = stablehlo.add %110, %111 : tensor<4xf32>
    %113 = stablehlo.broadcast_in_dim %112, dims = [0] : (tensor<4xf32>) -> tensor<4x10xf32>
    %114 = stablehlo.multiply %113, %93 : tensor<4x10xf32>
    %115 = call @_take_0(%68#1, %106) : (tensor<1xi32>, tensor<4xf32>) -> tensor<4x1xf32>
    %116 = call @take_along_axis_1(%67#1, %115) : (tensor<4x1x1xi32>, tensor<4x1xf32>) -> tensor<4x10xf32>
    %117 = stablehlo.add %114, %116 : tensor<4x10xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %118 = stablehlo.reduce(%117 init: %cst_38) applies stablehlo.add across dimensions = [0] : (tensor<4x10xf32>, tensor<f32>) -> tensor<10xf32>
    %119 = stablehlo.reshape %118 : (tensor<10xf32>) -> tensor<1x10xf32>
    %120 = stablehlo.reshape %119 : (tensor<1x10xf32>) -> tensor<10xf32>
    %121 = stablehlo.dot_general %117, %61, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x10xf32>, tensor<4x8xf32>) -> tensor<10x8xf32>
    %122 = stablehlo.transpose %121, dims = [1, 0] : (tensor<10x8xf32>) -> tensor<8x10xf32>
    %123 = stablehlo.dot_general %117, %arg7, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x10xf32>, tensor<8x10xf32>) -> tensor<4x8xf32>
    %cst_39 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %125 = stablehlo.divide %123, %124 : tensor<4x8xf32>
    %126 = stablehlo.broadcast_in_dim %125, dims = [0, 3] : (tensor<4x8xf32>) -> tensor<4x8x8x8xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<4x8x8x8xf32>
    %128 = stablehlo.select %57, %126, %127 : tensor<4x8x8x8xi1>, tensor<4x8x8x8xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %129 = stablehlo.reduce(%128 init: %cst_41) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %130 = stablehlo.reshape %129 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %131 = stablehlo.reshape %130 : (tensor<1x1x1x8xf32>) -> tensor<8xf32>
    %132 = stablehlo.multiply %41, %128 : tensor<4x8x8x8xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %133 = stablehlo.reduce(%132 init: %cst_42) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %134 = stablehlo.reshape %133 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %135 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %136 = stablehlo.multiply %128, %135 : tensor<4x8x8x8xf32>
    %137 = stablehlo.multiply %44, %134 : tensor<1x1x1x8xf32>
    %138 = stablehlo.multiply %134, %48 : tensor<1x1x1x8xf32>
    %139 = stablehlo.reshape %137 : (tensor<1x1x1x8xf32>) -> tensor<8xf32>
    %140 = stablehlo.multiply %138, %47 : tensor<1x1x1x8xf32>
    %141 = stablehlo.negate %136 : tensor<4x8x8x8xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %142 = stablehlo.reduce(%141 init: %cst_43) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %143 = stablehlo.reshape %142 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %144 = stablehlo.reduce(%140 init: %cst_44) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %145 = stablehlo.reduce(%143 init: %cst_45) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %146 = stablehlo.multiply %144, %27 : tensor<8xf32>
    %147 = stablehlo.negate %146 : tensor<8xf32>
    %148 = stablehlo.multiply %147, %15 : tensor<8xf32>
    %149 = stablehlo.add %145, %148 : tensor<8xf32>
    %cst_46 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %150 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %151 = stablehlo.divide %146, %150 : tensor<8xf32>
    %152 = stablehlo.broadcast_in_dim %151, dims = [3] : (tensor<8xf32>) -> tensor<4x8x8x8xf32>
    %cst_47 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %153 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %154 = stablehlo.divide %149, %153 : tensor<8xf32>
    %155 = stablehlo.broadcast_in_dim %154, dims = [3] : (tensor<8xf32>) -> tensor<4x8x8x8xf32>
    %156 = stablehlo.add %136, %155 : tensor<4x8x8x8xf32>
    %157 = stablehlo.multiply %152, %6 : tensor<4x8x8x8xf32>
    %158 = stablehlo.add %156, %157 : tensor<4x8x8x8xf32>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %159 = stablehlo.reduce(%158 init: %cst_48) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %160 = stablehlo.reshape %159 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %161 = stablehlo.reshape %160 : (tensor<1x1x1x8xf32>) -> tensor<8xf32>
    %162 = stablehlo.convolution(%arg14, %158) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8x8x3xf32>, tensor<4x8x8x8xf32>) -> tensor<3x3x3x8xf32>
    %cst_49 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %163 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %164 = stablehlo.multiply %163, %arg8 : tensor<8xf32>
    %165 = stablehlo.add %131, %164 : tensor<8xf32>
    %cst_50 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %166 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %167 = stablehlo.multiply %166, %arg9 : tensor<8xf32>
    %168 = stablehlo.add %139, %167 : tensor<8xf32>
    %cst_51 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %169 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %170 = stablehlo.multiply %169, %arg10 : tensor<8xf32>
    %171 = stablehlo.add %161, %170 : tensor<8xf32>
    %cst_52 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %172 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<3x3x3x8xf32>
    %173 = stablehlo.multiply %172, %arg11 : tensor<3x3x3x8xf32>
    %174 = stablehlo.add %162, %173 : tensor<3x3x3x8xf32>
    %cst_53 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %175 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %176 = stablehlo.multiply %175, %arg12 : tensor<10xf32>
    %177 = stablehlo.add %120, %176 : tensor<10xf32>
    %cst_54 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %178 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %179 = stablehlo.multiply %178, %arg13 : tensor<8x10xf32>
    %180 = stablehlo.add %122, %179 : tensor<8x10xf32>
    %cst_55 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %181 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %182 = stablehlo.multiply %181, %165 : tensor<8xf32>
    %cst_56 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %183 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %184 = stablehlo.multiply %183, %168 : tensor<8xf32>
    %cst_57 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %185 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %186 = stablehlo.multiply %185, %171 : tensor<8xf32>
    %cst_58 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %187 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<3x3x3x8xf32>
    %188 = stablehlo.multiply %187, %174 : tensor<3x3x3x8xf32>
    %cst_59 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %189 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %190 = stablehlo.multiply %189, %177 : tensor<10xf32>
    %cst_60 = stablehlo.constant dense<-1.000000e-01> : tensor<f32>
    %191 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %192 = stablehlo.multiply %191, %180 : tensor<8x10xf32>
    %193 = stablehlo.add %arg2, %182 : tensor<8xf32>
    %194 = stablehlo.add %arg3, %184 : tensor<8xf32>
    %195 = stablehlo.add %arg4, %186 : tensor<8xf32>
    %196 = stablehlo.add %arg5, %188 : tensor<3x3x3x8xf32>
    %197 = stablehlo.add %arg6, %190 : tensor<10xf32>
    %198 = stablehlo.add %arg7, %192 : tensor<8x10xf32>
    return %103, %32, %37, %193, %194, %195, %196, %197, %198, %165, %168, %171, %174, %177, %180 : tensor<f32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<3x3x3x8xf32>, tensor<10xf32>, tensor<8x10xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<3x3x3x8xf32>, tensor<10xf32>, tensor<8x10xf32>
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
