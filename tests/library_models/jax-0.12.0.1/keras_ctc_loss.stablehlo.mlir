module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x6xi32>, %arg1: tensor<4x15x8xf32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %0 = stablehlo.convert %arg0 : (tensor<4x6xi32>) -> tensor<4x6xf32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %c_1 = stablehlo.constant dense<15> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %3 = stablehlo.multiply %2, %1 : tensor<4xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %5 = stablehlo.compare NE, %0, %4, FLOAT : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %6 = stablehlo.convert %5 : (tensor<4x6xi1>) -> tensor<4x6xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.reduce(%6 init: %c_2) applies stablehlo.add across dimensions = [1] : (tensor<4x6xi32>, tensor<i32>) -> tensor<4xi32>
    %8 = stablehlo.convert %0 : (tensor<4x6xf32>) -> tensor<4x6xi32>
    %9 = stablehlo.iota dim = 0 : tensor<6xi32>
    %10 = stablehlo.reshape %9 : (tensor<6xi32>) -> tensor<1x6xi32>
    %11 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %12 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<1x6xi32>) -> tensor<4x6xi32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<4x1xi32>) -> tensor<4x6xi32>
    %14 = stablehlo.compare LT, %12, %13, SIGNED : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi1>
    %15 = stablehlo.not %14 : tensor<4x6xi1>
    %16 = stablehlo.iota dim = 0 : tensor<15xi32>
    %17 = stablehlo.reshape %16 : (tensor<15xi32>) -> tensor<1x15xi32>
    %18 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %19 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<1x15xi32>) -> tensor<4x15xi32>
    %20 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<4x1xi32>) -> tensor<4x15xi32>
    %21 = stablehlo.compare LT, %19, %20, SIGNED : (tensor<4x15xi32>, tensor<4x15xi32>) -> tensor<4x15xi1>
    %22 = stablehlo.not %21 : tensor<4x15xi1>
    %23 = stablehlo.convert %15 : (tensor<4x6xi1>) -> tensor<4x6xf32>
    %24 = stablehlo.convert %22 : (tensor<4x15xi1>) -> tensor<4x15xf32>
    %25 = call @log_softmax(%arg1) : (tensor<4x15x8xf32>) -> tensor<4x15x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.reduce(%23 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
    %27 = stablehlo.convert %26 : (tensor<4xf32>) -> tensor<4xi32>
    %c_4 = stablehlo.constant dense<6> : tensor<i32>
    %28 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %29 = stablehlo.subtract %28, %27 : tensor<4xi32>
    %30 = stablehlo.slice %8 [0:4, 0:5] : (tensor<4x6xi32>) -> tensor<4x5xi32>
    %31 = stablehlo.slice %8 [0:4, 1:6] : (tensor<4x6xi32>) -> tensor<4x5xi32>
    %32 = stablehlo.compare EQ, %30, %31, SIGNED : (tensor<4x5xi32>, tensor<4x5xi32>) -> tensor<4x5xi1>
    %33 = stablehlo.convert %32 : (tensor<4x5xi1>) -> tensor<4x5xf32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %34 = call @_pad(%33, %c_5) : (tensor<4x5xf32>, tensor<i32>) -> tensor<4x6xf32>
    %35 = stablehlo.slice %25 [0:4, 0:15, 0:1] : (tensor<4x15x8xf32>) -> tensor<4x15x1xf32>
    %36 = stablehlo.transpose %35, dims = [1, 0, 2] : (tensor<4x15x1xf32>) -> tensor<15x4x1xf32>
    %37 = call @_one_hot(%8) : (tensor<4x6xi32>) -> tensor<4x6x8xf32>
    %38 = stablehlo.dot_general %25, %37, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x15x8xf32>, tensor<4x6x8xf32>) -> tensor<4x15x6xf32>
    %39 = stablehlo.transpose %38, dims = [1, 0, 2] : (tensor<4x15x6xf32>) -> tensor<15x4x6xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x7xf32>
    %cst_7 = stablehlo.constant dense<-1.000000e+05> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x7xf32>
    %42 = stablehlo.multiply %40, %41 : tensor<4x7xf32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %43 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %45 = "stablehlo.scatter"(%42, %43, %44) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>, unique_indices = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      stablehlo.return %arg3 : tensor<f32>
    }) : (tensor<4x7xf32>, tensor<1xi32>, tensor<4xf32>) -> tensor<4x7xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %cst_11 = stablehlo.constant dense<-1.000000e+05> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %48 = stablehlo.multiply %46, %47 : tensor<4x6xf32>
    %49 = stablehlo.transpose %24, dims = [1, 0] : (tensor<4x15xf32>) -> tensor<15x4xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<15x4x7xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<15x4x6xf32>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %52:9 = stablehlo.while(%iterArg = %39, %iterArg_22 = %36, %iterArg_23 = %49, %iterArg_24 = %34, %iterArg_25 = %c_14, %iterArg_26 = %45, %iterArg_27 = %48, %iterArg_28 = %50, %iterArg_29 = %51) : tensor<15x4x6xf32>, tensor<15x4x1xf32>, tensor<15x4xf32>, tensor<4x6xf32>, tensor<i32>, tensor<4x7xf32>, tensor<4x6xf32>, tensor<15x4x7xf32>, tensor<15x4x6xf32>
    cond {
      %c_30 = stablehlo.constant dense<15> : tensor<i32>
      %83 = stablehlo.compare LT, %iterArg_25, %c_30, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %83 : tensor<i1>
    } do {
      %83 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_25) : (tensor<15x4x6xf32>, tensor<i32>) -> tensor<4x6xf32>
      %84 = func.call @dynamic_index_in_dim_0(%iterArg_22, %iterArg_25) : (tensor<15x4x1xf32>, tensor<i32>) -> tensor<4x1xf32>
      %85 = func.call @dynamic_index_in_dim_1(%iterArg_23, %iterArg_25) : (tensor<15x4xf32>, tensor<i32>) -> tensor<4xf32>
      %cst_30 = stablehlo.constant dense<-1.000000e+05> : tensor<f32>
      %86 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
      %87 = stablehlo.multiply %86, %iterArg_24 : tensor<4x6xf32>
      %88 = stablehlo.add %iterArg_27, %87 : tensor<4x6xf32>
      %89 = stablehlo.slice %iterArg_26 [0:4, 0:1] : (tensor<4x7xf32>) -> tensor<4x1xf32>
      %90 = stablehlo.slice %iterArg_26 [0:4, 1:7] : (tensor<4x7xf32>) -> tensor<4x6xf32>
      %91 = stablehlo.maximum %90, %88 : tensor<4x6xf32>
      %92 = stablehlo.subtract %90, %88 : tensor<4x6xf32>
      %93 = stablehlo.compare NE, %92, %92, FLOAT : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
      %94 = stablehlo.add %90, %88 : tensor<4x6xf32>
      %95 = stablehlo.abs %92 : tensor<4x6xf32>
      %96 = stablehlo.negate %95 : tensor<4x6xf32>
      %97 = stablehlo.exponential %96 : tensor<4x6xf32>
      %98 = stablehlo.log_plus_one %97 : tensor<4x6xf32>
      %99 = stablehlo.add %91, %98 : tensor<4x6xf32>
      %100 = stablehlo.select %93, %94, %99 : tensor<4x6xi1>, tensor<4x6xf32>
      %101 = stablehlo.concatenate %89, %100, dim = 1 : (tensor<4x1xf32>, tensor<4x6xf32>) -> tensor<4x7xf32>
      %102 = stablehlo.slice %101 [0:4, 0:6] : (tensor<4x7xf32>) -> tensor<4x6xf32>
      %103 = stablehlo.add %102, %83 : tensor<4x6xf32>
      %104 = stablehlo.add %iterArg_27, %83 : tensor<4x6xf32>
      %105 = stablehlo.maximum %103, %104 : tensor<4x6xf32>
      %106 = stablehlo.subtract %103, %104 : tensor<4x6xf32>
      %107 = stablehlo.compare NE, %106, %106, FLOAT : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
      %108 = stablehlo.add %103, %104 : tensor<4x6xf32>
      %109 = stablehlo.abs %106 : tensor<4x6xf32>
      %110 = stablehlo.negate %109 : tensor<4x6xf32>
      %111 = stablehlo.exponential %110 : tensor<4x6xf32>
      %112 = stablehlo.log_plus_one %111 : tensor<4x6xf32>
      %113 = stablehlo.add %105, %112 : tensor<4x6xf32>
      %114 = stablehlo.select %107, %108, %113 : tensor<4x6xi1>, tensor<4x6xf32>
      %115 = stablehlo.broadcast_in_dim %84, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x7xf32>
      %116 = stablehlo.add %101, %115 : tensor<4x7xf32>
      %117 = stablehlo.broadcast_in_dim %84, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x6xf32>
      %118 = stablehlo.add %iterArg_27, %117 : tensor<4x6xf32>
      %cst_31 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %119 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
      %120 = stablehlo.subtract %119, %iterArg_24 : tensor<4x6xf32>
      %cst_32 = stablehlo.constant dense<-1.000000e+05> : tensor<f32>
      %121 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
      %122 = stablehlo.multiply %121, %120 : tensor<4x6xf32>
      %123 = stablehlo.add %118, %122 : tensor<4x6xf32>
      %124 = stablehlo.slice %116 [0:4, 0:1] : (tensor<4x7xf32>) -> tensor<4x1xf32>
      %125 = stablehlo.slice %116 [0:4, 1:7] : (tensor<4x7xf32>) -> tensor<4x6xf32>
      %126 = stablehlo.maximum %125, %123 : tensor<4x6xf32>
      %127 = stablehlo.subtract %125, %123 : tensor<4x6xf32>
      %128 = stablehlo.compare NE, %127, %127, FLOAT : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
      %129 = stablehlo.add %125, %123 : tensor<4x6xf32>
      %130 = stablehlo.abs %127 : tensor<4x6xf32>
      %131 = stablehlo.negate %130 : tensor<4x6xf32>
      %132 = stablehlo.exponential %131 : tensor<4x6xf32>
      %133 = stablehlo.log_plus_one %132 : tensor<4x6xf32>
      %134 = stablehlo.add %126, %133 : tensor<4x6xf32>
      %135 = stablehlo.select %128, %129, %134 : tensor<4x6xi1>, tensor<4x6xf32>
      %136 = stablehlo.concatenate %124, %135, dim = 1 : (tensor<4x1xf32>, tensor<4x6xf32>) -> tensor<4x7xf32>
      %137 = stablehlo.reshape %85 : (tensor<4xf32>) -> tensor<4x1xf32>
      %138 = stablehlo.broadcast_in_dim %137, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x6xf32>
      %139 = stablehlo.multiply %138, %iterArg_27 : tensor<4x6xf32>
      %cst_33 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %140 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
      %141 = stablehlo.subtract %140, %137 : tensor<4x1xf32>
      %142 = stablehlo.broadcast_in_dim %141, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x6xf32>
      %143 = stablehlo.multiply %142, %114 : tensor<4x6xf32>
      %144 = stablehlo.add %139, %143 : tensor<4x6xf32>
      %145 = stablehlo.broadcast_in_dim %137, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x7xf32>
      %146 = stablehlo.multiply %145, %iterArg_26 : tensor<4x7xf32>
      %cst_34 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %147 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
      %148 = stablehlo.subtract %147, %137 : tensor<4x1xf32>
      %149 = stablehlo.broadcast_in_dim %148, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x7xf32>
      %150 = stablehlo.multiply %149, %136 : tensor<4x7xf32>
      %151 = stablehlo.add %146, %150 : tensor<4x7xf32>
      %152 = func.call @dynamic_update_index_in_dim(%iterArg_28, %151, %iterArg_25) : (tensor<15x4x7xf32>, tensor<4x7xf32>, tensor<i32>) -> tensor<15x4x7xf32>
      %153 = func.call @dynamic_update_index_in_dim_2(%iterArg_29, %144, %iterArg_25) : (tensor<15x4x6xf32>, tensor<4x6xf32>, tensor<i32>) -> tensor<15x4x6xf32>
      %c_35 = stablehlo.constant dense<1> : tensor<i32>
      %154 = stablehlo.add %iterArg_25, %c_35 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_22, %iterArg_23, %iterArg_24, %154, %151, %144, %152, %153 : tensor<15x4x6xf32>, tensor<15x4x1xf32>, tensor<15x4xf32>, tensor<4x6xf32>, tensor<i32>, tensor<4x7xf32>, tensor<4x6xf32>, tensor<15x4x7xf32>, tensor<15x4x6xf32>
    }
    %53 = stablehlo.slice %52#7 [14:15, 0:4, 0:7] : (tensor<15x4x7xf32>) -> tensor<1x4x7xf32>
    %54 = stablehlo.reshape %53 : (tensor<1x4x7xf32>) -> tensor<4x7xf32>
    %55 = stablehlo.slice %52#8 [14:15, 0:4, 0:6] : (tensor<15x4x6xf32>) -> tensor<1x4x6xf32>
    %56 = stablehlo.reshape %55 : (tensor<1x4x6xf32>) -> tensor<4x6xf32>
    %57 = stablehlo.slice %54 [0:4, 0:1] : (tensor<4x7xf32>) -> tensor<4x1xf32>
    %58 = stablehlo.slice %54 [0:4, 1:7] : (tensor<4x7xf32>) -> tensor<4x6xf32>
    %59 = stablehlo.maximum %58, %56 : tensor<4x6xf32>
    %60 = stablehlo.subtract %58, %56 : tensor<4x6xf32>
    %61 = stablehlo.compare NE, %60, %60, FLOAT : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %62 = stablehlo.add %58, %56 : tensor<4x6xf32>
    %63 = stablehlo.abs %60 : tensor<4x6xf32>
    %64 = stablehlo.negate %63 : tensor<4x6xf32>
    %65 = stablehlo.exponential %64 : tensor<4x6xf32>
    %66 = stablehlo.log_plus_one %65 : tensor<4x6xf32>
    %67 = stablehlo.add %59, %66 : tensor<4x6xf32>
    %68 = stablehlo.select %61, %62, %67 : tensor<4x6xi1>, tensor<4x6xf32>
    %69 = stablehlo.concatenate %57, %68, dim = 1 : (tensor<4x1xf32>, tensor<4x6xf32>) -> tensor<4x7xf32>
    %c_15 = stablehlo.constant dense<14> : tensor<i32>
    %70 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %71 = "stablehlo.scatter"(%52#7, %70, %69) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      stablehlo.return %arg3 : tensor<f32>
    }) : (tensor<15x4x7xf32>, tensor<1xi32>, tensor<4x7xf32>) -> tensor<15x4x7xf32>
    %72 = call @_one_hot_3(%29) : (tensor<4xi32>) -> tensor<4x7xf32>
    %73 = stablehlo.dot_general %69, %72, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x7xf32>, tensor<4x7xf32>) -> tensor<4xf32>
    %74 = stablehlo.negate %73 : tensor<4xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.reduce(%74 init: %cst_16) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %c_17 = stablehlo.constant dense<1> : tensor<i32>
    %76 = stablehlo.reduce(%c init: %c_17) applies stablehlo.multiply across dimensions = [0] : (tensor<1xi32>, tensor<i32>) -> tensor<i32>
    %77 = stablehlo.convert %76 : (tensor<i32>) -> tensor<f32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %78 = stablehlo.compare EQ, %77, %cst_18, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %c_19 = stablehlo.constant dense<1> : tensor<i32>
    %79 = call @_where(%78, %c_19, %77) : (tensor<i1>, tensor<i32>, tensor<f32>) -> tensor<f32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %80 = stablehlo.compare EQ, %77, %cst_20, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %81 = stablehlo.divide %75, %79 : tensor<f32>
    %c_21 = stablehlo.constant dense<0> : tensor<i32>
    %82 = call @_where(%80, %c_21, %81) : (tensor<i1>, tensor<i32>, tensor<f32>) -> tensor<f32>
    return %82 : tensor<f32>
  }
  func.func private @log_softmax(%arg0: tensor<4x15x8xf32>) -> tensor<4x15x8xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [2] : (tensor<4x15x8xf32>, tensor<f32>) -> tensor<4x15xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x15xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<4x15xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<4x15xf32>) -> tensor<4x15x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x15x1xf32>) -> tensor<4x15x8xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x15x8xf32>
    %6 = stablehlo.exponential %5 : tensor<4x15x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<4x15x8xf32>, tensor<f32>) -> tensor<4x15xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<4x15xf32>) -> tensor<4x15x1xf32>
    %9 = stablehlo.log %8 : tensor<4x15x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<4x15x1xf32>) -> tensor<4x15x8xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<4x15x8xf32>
    return %11 : tensor<4x15x8xf32>
  }
  func.func private @_pad(%arg0: tensor<4x5xf32>, %arg1: tensor<i32>) -> tensor<4x6xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4x6xf32>
    return %1 : tensor<4x6xf32>
  }
  func.func private @_one_hot(%arg0: tensor<4x6xi32>) -> tensor<4x6x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<4x6xi32>) -> tensor<4x6x1xi32>
    %1 = stablehlo.iota dim = 2 : tensor<1x1x8xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<4x6x1xi32>) -> tensor<4x6x8xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x8xi32>) -> tensor<4x6x8xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<4x6x8xi32>, tensor<4x6x8xi32>) -> tensor<4x6x8xi1>
    %5 = stablehlo.convert %4 : (tensor<4x6x8xi1>) -> tensor<4x6x8xf32>
    return %5 : tensor<4x6x8xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<15x4x6xf32>, %arg1: tensor<i32>) -> tensor<4x6xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 4, 6] : (tensor<15x4x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x6xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x6xf32>) -> tensor<4x6xf32>
    return %1 : tensor<4x6xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<15x4x1xf32>, %arg1: tensor<i32>) -> tensor<4x1xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 4, 1] : (tensor<15x4x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x1xf32>) -> tensor<4x1xf32>
    return %1 : tensor<4x1xf32>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<15x4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 4] : (tensor<15x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<15x4x7xf32>, %arg1: tensor<4x7xf32>, %arg2: tensor<i32>) -> tensor<15x4x7xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4x7xf32>) -> tensor<1x4x7xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<15x4x7xf32>, tensor<1x4x7xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<15x4x7xf32>
    return %1 : tensor<15x4x7xf32>
  }
  func.func private @dynamic_update_index_in_dim_2(%arg0: tensor<15x4x6xf32>, %arg1: tensor<4x6xf32>, %arg2: tensor<i32>) -> tensor<15x4x6xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4x6xf32>) -> tensor<1x4x6xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<15x4x6xf32>, tensor<1x4x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<15x4x6xf32>
    return %1 : tensor<15x4x6xf32>
  }
  func.func private @_one_hot_3(%arg0: tensor<4xi32>) -> tensor<4x7xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x7xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<4x1xi32>) -> tensor<4x7xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x7xi32>) -> tensor<4x7xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<4x7xi32>, tensor<4x7xi32>) -> tensor<4x7xi1>
    %5 = stablehlo.convert %4 : (tensor<4x7xi1>) -> tensor<4x7xf32>
    return %5 : tensor<4x7xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<i1>, tensor<f32>
    return %1 : tensor<f32>
  }
}
