module @IrToHlo.105 attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} {
  func.func @main(%arg0: tensor<10xf32>, %arg1: tensor<10x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16x8x3x3xf32>, %arg4: tensor<8xf32>, %arg5: tensor<8xf32>, %arg6: tensor<8xf32>, %arg7: tensor<8xf32>, %arg8: tensor<8xf32>, %arg9: tensor<8x3x3x3xf32>, %arg10: tensor<2x3x8x8xf32>) -> tensor<2x10xf32> {
    %cst = stablehlo.constant dense<6.250000e-02> : tensor<2x16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<2x16x4x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<2x8x8x8xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.convolution(%arg10, %arg9) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<2x8x8x8xf32>
    %1 = stablehlo.broadcast_in_dim %arg8, dims = [1] : (tensor<8xf32>) -> tensor<2x8x8x8xf32>
    %2 = stablehlo.add %0, %1 : tensor<2x8x8x8xf32>
    %3 = "stablehlo.batch_norm_inference"(%2, %arg7, %arg6, %arg5, %arg4) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<2x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8x8x8xf32>
    %4 = stablehlo.maximum %3, %cst_1 : tensor<2x8x8x8xf32>
    %5 = "stablehlo.reduce_window"(%4, %cst_2) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %16 = stablehlo.maximum %arg11, %arg12 : tensor<f32>
      stablehlo.return %16 : tensor<f32>
    }) : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x8x4x4xf32>
    %6 = stablehlo.convolution(%5, %arg3) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x4x4xf32>, tensor<16x8x3x3xf32>) -> tensor<2x16x4x4xf32>
    %7 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<16xf32>) -> tensor<2x16x4x4xf32>
    %8 = stablehlo.add %6, %7 : tensor<2x16x4x4xf32>
    %9 = stablehlo.maximum %8, %cst_0 : tensor<2x16x4x4xf32>
    %10 = stablehlo.reduce(%9 init: %cst_3) applies stablehlo.add across dimensions = [3, 2] : (tensor<2x16x4x4xf32>, tensor<f32>) -> tensor<2x16xf32>
    %11 = stablehlo.multiply %10, %cst : tensor<2x16xf32>
    %12 = stablehlo.transpose %arg1, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[16,10]{0,1}"} : (tensor<10x16xf32>) -> tensor<16x10xf32>
    %13 = stablehlo.dot_general %11, %12, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16xf32>, tensor<16x10xf32>) -> tensor<2x10xf32>
    %14 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<10xf32>) -> tensor<2x10xf32>
    %15 = stablehlo.add %13, %14 : tensor<2x10xf32>
    return %15 : tensor<2x10xf32>
  }
}
