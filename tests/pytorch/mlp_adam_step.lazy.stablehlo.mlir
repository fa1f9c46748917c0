module @IrToHlo.293 attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} {
  func.func @main(%arg0: tensor<8xi64>, %arg1: tensor<5xf32>, %arg2: tensor<5x32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32x16xf32>, %arg5: tensor<8x16xf32>, %arg6: tensor<f64>, %arg7: tensor<f32>, %arg8: tensor<f32>, %arg9: tensor<f64>, %arg10: tensor<f32>, %arg11: tensor<32x16xf32>, %arg12: tensor<f32>, %arg13: tensor<32x16xf32>, %arg14: tensor<32xf32>, %arg15: tensor<32xf32>, %arg16: tensor<5x32xf32>, %arg17: tensor<5x32xf32>, %arg18: tensor<5xf32>, %arg19: tensor<5xf32>) -> (tensor<f32>, tensor<32x16xf32>, tensor<32xf32>, tensor<5x32xf32>, tensor<5xf32>, tensor<32x16xf32>, tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<5x32xf32>, tensor<5x32xf32>, tensor<5xf32>, tensor<5xf32>) {
    %cst = stablehlo.constant dense<0.398942292> : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<-5.000000e-01> : tensor<8x32xf32>
    %c = stablehlo.constant dense<-100> : tensor<8xi64>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<8x32xf32>
    %cst_2 = stablehlo.constant dense<0.707106769> : tensor<8x32xf32>
    %cst_3 = stablehlo.constant dense<5.000000e-01> : tensor<8x32xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<8x5xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<8x5xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<8xi64>) -> tensor<8x5xi64>
    %1 = stablehlo.iota dim = 0 : tensor<5xi64>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<5xi64>) -> tensor<8x5xi64>
    %3 = stablehlo.compare  EQ, %0, %2 : (tensor<8x5xi64>, tensor<8x5xi64>) -> tensor<8x5xi1>
    %4 = stablehlo.select %3, %cst_5, %cst_4 : tensor<8x5xi1>, tensor<8x5xf32>
    %5 = stablehlo.compare  NE, %4, %cst_5 : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<8x5xi1>
    %6 = stablehlo.negate %4 : tensor<8x5xf32>
    %7 = stablehlo.transpose %arg4, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[16,32]{0,1}"} : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %8 = stablehlo.dot_general %arg5, %7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %9 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>
    %10 = stablehlo.add %8, %9 : tensor<8x32xf32>
    %11 = stablehlo.multiply %10, %cst_3 : tensor<8x32xf32>
    %12 = stablehlo.multiply %10, %cst_2 : tensor<8x32xf32>
    %13 = stablehlo.custom_call @mhlo.erf(%12) {mhlo.attributes = {}, mhlo.version = 1 : i64} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %14 = stablehlo.add %13, %cst_1 : tensor<8x32xf32>
    %15 = stablehlo.multiply %11, %14 : tensor<8x32xf32>
    %16 = stablehlo.transpose %arg2, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,5]{0,1}"} : (tensor<5x32xf32>) -> tensor<32x5xf32>
    %17 = stablehlo.dot_general %15, %16, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x5xf32>) -> tensor<8x5xf32>
    %18 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<5xf32>) -> tensor<8x5xf32>
    %19 = stablehlo.add %17, %18 : tensor<8x5xf32>
    %20 = stablehlo.reduce(%19 init: %cst_6) applies stablehlo.maximum across dimensions = [1] : (tensor<8x5xf32>, tensor<f32>) -> tensor<8xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<8xf32>) -> tensor<8x5xf32>
    %22 = stablehlo.subtract %19, %21 : tensor<8x5xf32>
    %23 = stablehlo.exponential %22 : tensor<8x5xf32>
    %24 = stablehlo.reduce(%23 init: %cst_7) applies stablehlo.add across dimensions = [1] : (tensor<8x5xf32>, tensor<f32>) -> tensor<8xf32>
    %25 = stablehlo.log %24 : tensor<8xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0] : (tensor<8xf32>) -> tensor<8x5xf32>
    %27 = stablehlo.subtract %22, %26 : tensor<8x5xf32>
    %28 = stablehlo.multiply %6, %27 : tensor<8x5xf32>
    %29 = stablehlo.select %5, %cst_4, %28 : tensor<8x5xi1>, tensor<8x5xf32>
    %30 = stablehlo.compare  NE, %arg0, %c : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0] : (tensor<8xi1>) -> tensor<8x5xi1>
    %32 = stablehlo.select %31, %cst_5, %cst_4 : tensor<8x5xi1>, tensor<8x5xf32>
    %33 = stablehlo.multiply %32, %4 : tensor<8x5xf32>
    %34 = stablehlo.multiply %29, %33 : tensor<8x5xf32>
    %35 = stablehlo.reduce(%34 init: %cst_7) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x5xf32>, tensor<f32>) -> tensor<f32>
    %36 = stablehlo.reduce(%33 init: %cst_7) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x5xf32>, tensor<f32>) -> tensor<f32>
    %37 = stablehlo.divide %35, %36 : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %arg12, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %39 = stablehlo.transpose %arg5, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[16,8]{0,1}"} : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %40 = stablehlo.multiply %6, %33 : tensor<8x5xf32>
    %41 = stablehlo.compare  NE, %36, %cst_7 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %42 = stablehlo.select %41, %36, %cst_8 : tensor<i1>, tensor<f32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [] : (tensor<f32>) -> tensor<8x5xf32>
    %44 = stablehlo.divide %40, %43 : tensor<8x5xf32>
    %45 = stablehlo.exponential %27 : tensor<8x5xf32>
    %46 = stablehlo.reduce(%44 init: %cst_7) applies stablehlo.add across dimensions = [1] : (tensor<8x5xf32>, tensor<f32>) -> tensor<8xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0] : (tensor<8xf32>) -> tensor<8x5xf32>
    %48 = stablehlo.multiply %45, %47 : tensor<8x5xf32>
    %49 = stablehlo.subtract %44, %48 : tensor<8x5xf32>
    %50 = stablehlo.dot_general %49, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x5xf32>, tensor<5x32xf32>) -> tensor<8x32xf32>
    %51 = stablehlo.multiply %14, %cst_3 : tensor<8x32xf32>
    %52 = stablehlo.multiply %10, %10 : tensor<8x32xf32>
    %53 = stablehlo.multiply %52, %cst_0 : tensor<8x32xf32>
    %54 = stablehlo.exponential %53 : tensor<8x32xf32>
    %55 = stablehlo.multiply %10, %54 : tensor<8x32xf32>
    %56 = stablehlo.multiply %55, %cst : tensor<8x32xf32>
    %57 = stablehlo.add %51, %56 : tensor<8x32xf32>
    %58 = stablehlo.multiply %50, %57 : tensor<8x32xf32>
    %59 = stablehlo.dot_general %39, %58, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
    %60 = stablehlo.transpose %59, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,16]{0,1}"} : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %61 = stablehlo.subtract %60, %arg13 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,16]{0,1}"} : tensor<32x16xf32>
    %62 = stablehlo.multiply %38, %61 : tensor<32x16xf32>
    %63 = stablehlo.add %arg13, %62 : tensor<32x16xf32>
    %64 = stablehlo.broadcast_in_dim %arg10, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %65 = stablehlo.multiply %arg11, %64 : tensor<32x16xf32>
    %66 = stablehlo.multiply %60, %60 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,16]{0,1}"} : tensor<32x16xf32>
    %67 = stablehlo.convert %arg9 : (tensor<f64>) -> tensor<f32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %69 = stablehlo.multiply %66, %68 : tensor<32x16xf32>
    %70 = stablehlo.add %65, %69 : tensor<32x16xf32>
    %71 = stablehlo.sqrt %70 : tensor<32x16xf32>
    %72 = stablehlo.broadcast_in_dim %arg8, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %73 = stablehlo.divide %71, %72 : tensor<32x16xf32>
    %74 = stablehlo.broadcast_in_dim %arg7, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %75 = stablehlo.add %73, %74 : tensor<32x16xf32>
    %76 = stablehlo.divide %63, %75 : tensor<32x16xf32>
    %77 = stablehlo.convert %arg6 : (tensor<f64>) -> tensor<f32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %79 = stablehlo.multiply %76, %78 : tensor<32x16xf32>
    %80 = stablehlo.add %arg4, %79 : tensor<32x16xf32>
    %81 = stablehlo.broadcast_in_dim %arg12, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %82 = stablehlo.reduce(%58 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %83 = stablehlo.subtract %82, %arg15 : tensor<32xf32>
    %84 = stablehlo.multiply %81, %83 : tensor<32xf32>
    %85 = stablehlo.add %arg15, %84 : tensor<32xf32>
    %86 = stablehlo.broadcast_in_dim %arg10, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %87 = stablehlo.multiply %arg14, %86 : tensor<32xf32>
    %88 = stablehlo.multiply %82, %82 : tensor<32xf32>
    %89 = stablehlo.broadcast_in_dim %67, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %90 = stablehlo.multiply %88, %89 : tensor<32xf32>
    %91 = stablehlo.add %87, %90 : tensor<32xf32>
    %92 = stablehlo.sqrt %91 : tensor<32xf32>
    %93 = stablehlo.broadcast_in_dim %arg8, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %94 = stablehlo.divide %92, %93 : tensor<32xf32>
    %95 = stablehlo.broadcast_in_dim %arg7, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %96 = stablehlo.add %94, %95 : tensor<32xf32>
    %97 = stablehlo.divide %85, %96 : tensor<32xf32>
    %98 = stablehlo.broadcast_in_dim %77, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %99 = stablehlo.multiply %97, %98 : tensor<32xf32>
    %100 = stablehlo.add %arg3, %99 : tensor<32xf32>
    %101 = stablehlo.broadcast_in_dim %arg12, dims = [] : (tensor<f32>) -> tensor<5x32xf32>
    %102 = stablehlo.transpose %15, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,8]{0,1}"} : (tensor<8x32xf32>) -> tensor<32x8xf32>
    %103 = stablehlo.dot_general %102, %49, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x8xf32>, tensor<8x5xf32>) -> tensor<32x5xf32>
    %104 = stablehlo.transpose %103, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[5,32]{0,1}"} : (tensor<32x5xf32>) -> tensor<5x32xf32>
    %105 = stablehlo.subtract %104, %arg17 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[5,32]{0,1}"} : tensor<5x32xf32>
    %106 = stablehlo.multiply %101, %105 : tensor<5x32xf32>
    %107 = stablehlo.add %arg17, %106 : tensor<5x32xf32>
    %108 = stablehlo.broadcast_in_dim %arg10, dims = [] : (tensor<f32>) -> tensor<5x32xf32>
    %109 = stablehlo.multiply %arg16, %108 : tensor<5x32xf32>
    %110 = stablehlo.multiply %104, %104 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[5,32]{0,1}"} : tensor<5x32xf32>
    %111 = stablehlo.broadcast_in_dim %67, dims = [] : (tensor<f32>) -> tensor<5x32xf32>
    %112 = stablehlo.multiply %110, %111 : tensor<5x32xf32>
    %113 = stablehlo.add %109, %112 : tensor<5x32xf32>
    %114 = stablehlo.sqrt %113 : tensor<5x32xf32>
    %115 = stablehlo.broadcast_in_dim %arg8, dims = [] : (tensor<f32>) -> tensor<5x32xf32>
    %116 = stablehlo.divide %114, %115 : tensor<5x32xf32>
    %117 = stablehlo.broadcast_in_dim %arg7, dims = [] : (tensor<f32>) -> tensor<5x32xf32>
    %118 = stablehlo.add %116, %117 : tensor<5x32xf32>
    %119 = stablehlo.divide %107, %118 : tensor<5x32xf32>
    %120 = stablehlo.broadcast_in_dim %77, dims = [] : (tensor<f32>) -> tensor<5x32xf32>
    %121 = stablehlo.multiply %119, %120 : tensor<5x32xf32>
    %122 = stablehlo.add %arg2, %121 : tensor<5x32xf32>
    %123 = stablehlo.broadcast_in_dim %arg12, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %124 = stablehlo.reduce(%49 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<8x5xf32>, tensor<f32>) -> tensor<5xf32>
    %125 = stablehlo.subtract %124, %arg19 : tensor<5xf32>
    %126 = stablehlo.multiply %123, %125 : tensor<5xf32>
    %127 = stablehlo.add %arg19, %126 : tensor<5xf32>
    %128 = stablehlo.broadcast_in_dim %arg10, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %129 = stablehlo.multiply %arg18, %128 : tensor<5xf32>
    %130 = stablehlo.multiply %124, %124 : tensor<5xf32>
    %131 = stablehlo.broadcast_in_dim %67, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %132 = stablehlo.multiply %130, %131 : tensor<5xf32>
    %133 = stablehlo.add %129, %132 : tensor<5xf32>
    %134 = stablehlo.sqrt %133 : tensor<5xf32>
    %135 = stablehlo.broadcast_in_dim %arg8, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %136 = stablehlo.divide %134, %135 : tensor<5xf32>
    %137 = stablehlo.broadcast_in_dim %arg7, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %138 = stablehlo.add %136, %137 : tensor<5xf32>
    %139 = stablehlo.divide %127, %138 : tensor<5xf32>
    %140 = stablehlo.broadcast_in_dim %77, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %141 = stablehlo.multiply %139, %140 : tensor<5xf32>
    %142 = stablehlo.add %arg1, %141 : tensor<5xf32>
    return %37, %80, %100, %122, %142, %63, %70, %85, %91, %107, %113, %127, %133 : tensor<f32>, tensor<32x16xf32>, tensor<32xf32>, tensor<5x32xf32>, tensor<5xf32>, tensor<32x16xf32>, tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<5x32xf32>, tensor<5x32xf32>, tensor<5xf32>, tensor<5xf32>
  }
}
