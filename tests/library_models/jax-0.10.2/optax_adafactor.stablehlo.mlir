module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<16x8xf32>, %arg2: tensor<i32>, %arg3: tensor<1xf32>, %arg4: tensor<1xf32>, %arg5: tensor<1xf32>, %arg6: tensor<1xf32>, %arg7: tensor<8xf32>, %arg8: tensor<16x8xf32>, %arg9: tensor<8xf32>, %arg10: tensor<16x8xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]['b']"}, tensor<16x8xf32> {jax.result_info = "result[0]['w']"}, tensor<i32> {jax.result_info = "result[1][0].count"}, tensor<1xf32> {jax.result_info = "result[1][0].v_row['b']"}, tensor<1xf32> {jax.result_info = "result[1][0].v_row['w']"}, tensor<1xf32> {jax.result_info = "result[1][0].v_col['b']"}, tensor<1xf32> {jax.result_info = "result[1][0].v_col['w']"}, tensor<8xf32> {jax.result_info = "result[1][0].v['b']"}, tensor<16x8xf32> {jax.result_info = "result[1][0].v['w']"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.subtract %arg2, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %0, %c_0 : tensor<i32>
    %2 = stablehlo.convert %1 : (tensor<i32>) -> tensor<f32>
    %cst = stablehlo.constant dense<-8.000000e-01> : tensor<f32>
    %3 = stablehlo.power %2, %cst : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.subtract %cst_1, %3 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %8 = stablehlo.multiply %arg9, %arg9 : tensor<8xf32>
    %cst_5 = stablehlo.constant dense<1.000000e-30> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %10 = stablehlo.add %8, %9 : tensor<8xf32>
    %11 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %12 = stablehlo.multiply %11, %arg7 : tensor<8xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.subtract %cst_6, %4 : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %15 = stablehlo.multiply %14, %10 : tensor<8xf32>
    %16 = stablehlo.add %12, %15 : tensor<8xf32>
    %cst_7 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %18 = stablehlo.power %16, %17 : tensor<8xf32>
    %19 = stablehlo.multiply %arg9, %18 : tensor<8xf32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %20 = stablehlo.subtract %arg2, %c_8 : tensor<i32>
    %c_9 = stablehlo.constant dense<1> : tensor<i32>
    %21 = stablehlo.add %20, %c_9 : tensor<i32>
    %22 = stablehlo.convert %21 : (tensor<i32>) -> tensor<f32>
    %cst_10 = stablehlo.constant dense<-8.000000e-01> : tensor<f32>
    %23 = stablehlo.power %22, %cst_10 : tensor<f32>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %24 = stablehlo.subtract %cst_11, %23 : tensor<f32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %28 = stablehlo.multiply %arg10, %arg10 : tensor<16x8xf32>
    %cst_15 = stablehlo.constant dense<1.000000e-30> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %30 = stablehlo.add %28, %29 : tensor<16x8xf32>
    %31 = stablehlo.broadcast_in_dim %24, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %32 = stablehlo.multiply %31, %arg8 : tensor<16x8xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %33 = stablehlo.subtract %cst_16, %24 : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %35 = stablehlo.multiply %34, %30 : tensor<16x8xf32>
    %36 = stablehlo.add %32, %35 : tensor<16x8xf32>
    %cst_17 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %38 = stablehlo.power %36, %37 : tensor<16x8xf32>
    %39 = stablehlo.multiply %arg10, %38 : tensor<16x8xf32>
    %c_18 = stablehlo.constant dense<2147483647> : tensor<i32>
    %40 = stablehlo.compare LT, %arg2, %c_18, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_19 = stablehlo.constant dense<1> : tensor<i32>
    %41 = stablehlo.add %arg2, %c_19 : tensor<i32>
    %c_20 = stablehlo.constant dense<2147483647> : tensor<i32>
    %42 = call @_where(%40, %41, %c_20) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %43 = stablehlo.multiply %19, %19 : tensor<8xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %44 = stablehlo.reduce(%43 init: %cst_21) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %cst_22 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %45 = stablehlo.divide %44, %cst_22 : tensor<f32>
    %46 = stablehlo.sqrt %45 : tensor<f32>
    %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %47 = stablehlo.divide %46, %cst_23 : tensor<f32>
    %cst_24 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %48 = stablehlo.maximum %cst_24, %47 : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %50 = stablehlo.divide %19, %49 : tensor<8xf32>
    %51 = stablehlo.multiply %39, %39 : tensor<16x8xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%51 init: %cst_25) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_26 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %53 = stablehlo.divide %52, %cst_26 : tensor<f32>
    %54 = stablehlo.sqrt %53 : tensor<f32>
    %cst_27 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %55 = stablehlo.divide %54, %cst_27 : tensor<f32>
    %cst_28 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %56 = stablehlo.maximum %cst_28, %55 : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %58 = stablehlo.divide %39, %57 : tensor<16x8xf32>
    %cst_29 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %60 = stablehlo.multiply %59, %50 : tensor<8xf32>
    %cst_30 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %62 = stablehlo.multiply %61, %58 : tensor<16x8xf32>
    %63 = stablehlo.multiply %arg0, %arg0 : tensor<8xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %64 = stablehlo.reduce(%63 init: %cst_31) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %cst_32 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %65 = stablehlo.divide %64, %cst_32 : tensor<f32>
    %66 = stablehlo.sqrt %65 : tensor<f32>
    %cst_33 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %67 = stablehlo.compare LE, %66, %cst_33, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_34 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %69 = call @_where_0(%67, %68, %arg0) : (tensor<i1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %cst_35 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %70 = stablehlo.compare LE, %66, %cst_35, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %71 = stablehlo.multiply %69, %69 : tensor<8xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %72 = stablehlo.reduce(%71 init: %cst_36) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %cst_37 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %73 = stablehlo.divide %72, %cst_37 : tensor<f32>
    %74 = stablehlo.sqrt %73 : tensor<f32>
    %cst_38 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %75 = call @_where_1(%70, %cst_38, %74) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %77 = stablehlo.multiply %60, %76 : tensor<8xf32>
    %78 = stablehlo.multiply %arg1, %arg1 : tensor<16x8xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %79 = stablehlo.reduce(%78 init: %cst_39) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_40 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %80 = stablehlo.divide %79, %cst_40 : tensor<f32>
    %81 = stablehlo.sqrt %80 : tensor<f32>
    %cst_41 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %82 = stablehlo.compare LE, %81, %cst_41, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_42 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %84 = call @_where_2(%82, %83, %arg1) : (tensor<i1>, tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %cst_43 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %85 = stablehlo.compare LE, %81, %cst_43, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %86 = stablehlo.multiply %84, %84 : tensor<16x8xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %87 = stablehlo.reduce(%86 init: %cst_44) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_45 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %88 = stablehlo.divide %87, %cst_45 : tensor<f32>
    %89 = stablehlo.sqrt %88 : tensor<f32>
    %cst_46 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %90 = call @_where_1(%85, %cst_46, %89) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %92 = stablehlo.multiply %62, %91 : tensor<16x8xf32>
    %cst_47 = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %94 = stablehlo.multiply %93, %77 : tensor<8xf32>
    %cst_48 = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %95 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %96 = stablehlo.multiply %95, %92 : tensor<16x8xf32>
    %97 = stablehlo.add %arg0, %94 : tensor<8xf32>
    %98 = stablehlo.add %arg1, %96 : tensor<16x8xf32>
    return %97, %98, %42, %5, %25, %6, %26, %16, %36 : tensor<8xf32>, tensor<16x8xf32>, tensor<i32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<8xf32>, tensor<16x8xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @_where_0(%arg0: tensor<i1>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func private @_where_1(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<i1>, tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @_where_2(%arg0: tensor<i1>, %arg1: tensor<16x8xf32>, %arg2: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}
