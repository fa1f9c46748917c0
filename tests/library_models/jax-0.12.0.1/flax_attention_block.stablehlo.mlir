module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<64x32xf32>, %arg2: tensor<64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32xf32>, %arg6: tensor<32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<4x8xf32>, %arg9: tensor<32x4x8xf32>, %arg10: tensor<32xf32>, %arg11: tensor<4x8x32xf32>, %arg12: tensor<4x8xf32>, %arg13: tensor<32x4x8xf32>, %arg14: tensor<4x8xf32>, %arg15: tensor<32x4x8xf32>, %arg16: tensor<2x16x32xf32>) -> (tensor<2x16x32xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg16 [0:2, 0:16, 0:1] : (tensor<2x16x32xf32>) -> tensor<2x16x1xf32>
    %1 = stablehlo.reshape %0 : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %2 = stablehlo.iota dim = 0 : tensor<16xi32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<16xi32>) -> tensor<2x16xi32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<2x16xi32>) -> tensor<2x1x16xi32>
    %6 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2] : (tensor<2x16x1xi32>) -> tensor<2x16x16xi32>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2] : (tensor<2x1x16xi32>) -> tensor<2x16x16xi32>
    %8 = stablehlo.compare GE, %6, %7, SIGNED : (tensor<2x16x16xi32>, tensor<2x16x16xi32>) -> tensor<2x16x16xi1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 2, 3] : (tensor<2x16x16xi1>) -> tensor<2x1x16x16xi1>
    %10 = stablehlo.convert %9 : (tensor<2x1x16x16xi1>) -> tensor<2x1x16x16xf32>
    %11 = chlo.square %arg16 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%arg16 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %14 = stablehlo.divide %12, %13 : tensor<2x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%11 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %17 = stablehlo.divide %15, %16 : tensor<2x16xf32>
    %18 = chlo.square %14 : tensor<2x16xf32> -> tensor<2x16xf32>
    %19 = stablehlo.subtract %17, %18 : tensor<2x16xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %21 = stablehlo.maximum %20, %19 : tensor<2x16xf32>
    %22 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %23 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %25 = stablehlo.subtract %arg16, %24 : tensor<2x16x32xf32>
    %cst_4 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %27 = stablehlo.add %23, %26 : tensor<2x16x1xf32>
    %28 = stablehlo.rsqrt %27 : tensor<2x16x1xf32>
    %29 = stablehlo.reshape %arg5 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %30 = stablehlo.broadcast_in_dim %28, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %31 = stablehlo.broadcast_in_dim %29, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %32 = stablehlo.multiply %30, %31 : tensor<2x16x32xf32>
    %33 = stablehlo.multiply %25, %32 : tensor<2x16x32xf32>
    %34 = stablehlo.reshape %arg4 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %36 = stablehlo.add %33, %35 : tensor<2x16x32xf32>
    %37 = stablehlo.dot_general %36, %arg13, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x4x8xf32>) -> tensor<2x16x4x8xf32>
    %38 = stablehlo.reshape %arg12 : (tensor<4x8xf32>) -> tensor<1x1x4x8xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2, 3] : (tensor<1x1x4x8xf32>) -> tensor<2x16x4x8xf32>
    %40 = stablehlo.add %37, %39 : tensor<2x16x4x8xf32>
    %41 = stablehlo.dot_general %36, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x4x8xf32>) -> tensor<2x16x4x8xf32>
    %42 = stablehlo.reshape %arg8 : (tensor<4x8xf32>) -> tensor<1x1x4x8xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2, 3] : (tensor<1x1x4x8xf32>) -> tensor<2x16x4x8xf32>
    %44 = stablehlo.add %41, %43 : tensor<2x16x4x8xf32>
    %45 = stablehlo.dot_general %36, %arg15, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x4x8xf32>) -> tensor<2x16x4x8xf32>
    %46 = stablehlo.reshape %arg14 : (tensor<4x8xf32>) -> tensor<1x1x4x8xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2, 3] : (tensor<1x1x4x8xf32>) -> tensor<2x16x4x8xf32>
    %48 = stablehlo.add %45, %47 : tensor<2x16x4x8xf32>
    %cst_5 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %49 = stablehlo.sqrt %cst_5 : tensor<f32>
    %50 = stablehlo.convert %49 : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [] : (tensor<f32>) -> tensor<2x16x4x8xf32>
    %52 = stablehlo.divide %40, %51 : tensor<2x16x4x8xf32>
    %53 = stablehlo.dot_general %52, %44, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>) -> tensor<2x4x16x16xf32>
    %cst_6 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %54 = call @_where(%10, %53, %cst_6) : (tensor<2x1x16x16xf32>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %55 = stablehlo.reduce(%54 init: %cst_7) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %cst_8 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<2x4x16xf32>
    %57 = stablehlo.maximum %56, %55 : tensor<2x4x16xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %60 = stablehlo.subtract %54, %59 : tensor<2x4x16x16xf32>
    %61 = stablehlo.exponential %60 : tensor<2x4x16x16xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.reduce(%61 init: %cst_9) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %65 = stablehlo.divide %61, %64 : tensor<2x4x16x16xf32>
    %66 = stablehlo.dot_general %48, %65, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x16x4x8xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x8x16xf32>
    %67 = stablehlo.transpose %66, dims = [0, 3, 1, 2] : (tensor<2x4x8x16xf32>) -> tensor<2x16x4x8xf32>
    %68 = stablehlo.dot_general %67, %arg11, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x4x8xf32>, tensor<4x8x32xf32>) -> tensor<2x16x32xf32>
    %69 = stablehlo.reshape %arg10 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %71 = stablehlo.add %68, %70 : tensor<2x16x32xf32>
    %72 = stablehlo.add %arg16, %71 : tensor<2x16x32xf32>
    %73 = chlo.square %72 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %74 = stablehlo.reduce(%72 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %cst_11 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %76 = stablehlo.divide %74, %75 : tensor<2x16xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %77 = stablehlo.reduce(%73 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %cst_13 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %79 = stablehlo.divide %77, %78 : tensor<2x16xf32>
    %80 = chlo.square %76 : tensor<2x16xf32> -> tensor<2x16xf32>
    %81 = stablehlo.subtract %79, %80 : tensor<2x16xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %83 = stablehlo.maximum %82, %81 : tensor<2x16xf32>
    %84 = stablehlo.broadcast_in_dim %76, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %85 = stablehlo.broadcast_in_dim %83, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %86 = stablehlo.broadcast_in_dim %84, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %87 = stablehlo.subtract %72, %86 : tensor<2x16x32xf32>
    %cst_15 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %89 = stablehlo.add %85, %88 : tensor<2x16x1xf32>
    %90 = stablehlo.rsqrt %89 : tensor<2x16x1xf32>
    %91 = stablehlo.reshape %arg7 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %92 = stablehlo.broadcast_in_dim %90, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %93 = stablehlo.broadcast_in_dim %91, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %94 = stablehlo.multiply %92, %93 : tensor<2x16x32xf32>
    %95 = stablehlo.multiply %87, %94 : tensor<2x16x32xf32>
    %96 = stablehlo.reshape %arg6 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %98 = stablehlo.add %95, %97 : tensor<2x16x32xf32>
    %99 = stablehlo.dot_general %98, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %100 = stablehlo.reshape %arg2 : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %101 = stablehlo.broadcast_in_dim %100, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<2x16x64xf32>
    %102 = stablehlo.add %99, %101 : tensor<2x16x64xf32>
    %103 = stablehlo.multiply %102, %102 : tensor<2x16x64xf32>
    %104 = stablehlo.multiply %103, %102 : tensor<2x16x64xf32>
    %cst_16 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x16x64xf32>
    %106 = stablehlo.multiply %105, %104 : tensor<2x16x64xf32>
    %107 = stablehlo.add %102, %106 : tensor<2x16x64xf32>
    %cst_17 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<2x16x64xf32>
    %109 = stablehlo.multiply %108, %107 : tensor<2x16x64xf32>
    %110 = stablehlo.tanh %109 : tensor<2x16x64xf32>
    %cst_18 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<2x16x64xf32>
    %112 = stablehlo.add %111, %110 : tensor<2x16x64xf32>
    %cst_19 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %113 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<2x16x64xf32>
    %114 = stablehlo.multiply %113, %112 : tensor<2x16x64xf32>
    %115 = stablehlo.multiply %102, %114 : tensor<2x16x64xf32>
    %116 = stablehlo.dot_general %115, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
    %117 = stablehlo.reshape %arg0 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %118 = stablehlo.broadcast_in_dim %117, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %119 = stablehlo.add %116, %118 : tensor<2x16x32xf32>
    %120 = stablehlo.add %72, %119 : tensor<2x16x32xf32>
    return %120 : tensor<2x16x32xf32>
  }
  func.func private @_where(%arg0: tensor<2x1x16x16xf32>, %arg1: tensor<2x4x16x16xf32>, %arg2: tensor<f32>) -> tensor<2x4x16x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x1x16x16xf32>
    %1 = stablehlo.compare NE, %arg0, %0, FLOAT : (tensor<2x1x16x16xf32>, tensor<2x1x16x16xf32>) -> tensor<2x1x16x16xi1>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<2x1x16x16xi1>) -> tensor<2x4x16x16xi1>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %4 = stablehlo.select %2, %arg1, %3 : tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>
    return %4 : tensor<2x4x16x16xf32>
  }
}
