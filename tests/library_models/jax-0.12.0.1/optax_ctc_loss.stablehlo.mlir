module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x20x6xf32>, %arg1: tensor<3x20xf32>, %arg2: tensor<3x7xi32>, %arg3: tensor<3x7xf32>) -> (tensor<3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:3, 0:20, 0:1] : (tensor<3x20x6xf32>) -> tensor<3x20x1xf32>
    %1 = stablehlo.reshape %0 : (tensor<3x20x1xf32>) -> tensor<3x20xf32>
    %2 = call @log_softmax(%arg0) : (tensor<3x20x6xf32>) -> tensor<3x20x6xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%arg3 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<3x7xf32>, tensor<f32>) -> tensor<3xf32>
    %4 = stablehlo.convert %3 : (tensor<3xf32>) -> tensor<3xi32>
    %c = stablehlo.constant dense<7> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %6 = stablehlo.subtract %5, %4 : tensor<3xi32>
    %7 = stablehlo.slice %arg2 [0:3, 0:6] : (tensor<3x7xi32>) -> tensor<3x6xi32>
    %8 = stablehlo.slice %arg2 [0:3, 1:7] : (tensor<3x7xi32>) -> tensor<3x6xi32>
    %9 = stablehlo.compare EQ, %7, %8, SIGNED : (tensor<3x6xi32>, tensor<3x6xi32>) -> tensor<3x6xi1>
    %10 = stablehlo.convert %9 : (tensor<3x6xi1>) -> tensor<3x6xf32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %11 = call @_pad(%10, %c_0) : (tensor<3x6xf32>, tensor<i32>) -> tensor<3x7xf32>
    %12 = stablehlo.slice %2 [0:3, 0:20, 0:1] : (tensor<3x20x6xf32>) -> tensor<3x20x1xf32>
    %13 = stablehlo.transpose %12, dims = [1, 0, 2] : (tensor<3x20x1xf32>) -> tensor<20x3x1xf32>
    %14 = call @_one_hot(%arg2) : (tensor<3x7xi32>) -> tensor<3x7x6xf32>
    %15 = stablehlo.dot_general %2, %14, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<3x20x6xf32>, tensor<3x7x6xf32>) -> tensor<3x20x7xf32>
    %16 = stablehlo.transpose %15, dims = [1, 0, 2] : (tensor<3x20x7xf32>) -> tensor<20x3x7xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x8xf32>
    %cst_2 = stablehlo.constant dense<-1.000000e+05> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x8xf32>
    %19 = stablehlo.multiply %17, %18 : tensor<3x8xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %20 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %22 = "stablehlo.scatter"(%19, %20, %21) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>, unique_indices = true}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      stablehlo.return %arg5 : tensor<f32>
    }) : (tensor<3x8xf32>, tensor<1xi32>, tensor<3xf32>) -> tensor<3x8xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<3x7xf32>
    %cst_6 = stablehlo.constant dense<-1.000000e+05> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<3x7xf32>
    %25 = stablehlo.multiply %23, %24 : tensor<3x7xf32>
    %26 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<3x20xf32>) -> tensor<20x3xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<20x3x8xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<20x3x7xf32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %29:9 = stablehlo.while(%iterArg = %16, %iterArg_11 = %13, %iterArg_12 = %26, %iterArg_13 = %11, %iterArg_14 = %c_9, %iterArg_15 = %22, %iterArg_16 = %25, %iterArg_17 = %27, %iterArg_18 = %28) : tensor<20x3x7xf32>, tensor<20x3x1xf32>, tensor<20x3xf32>, tensor<3x7xf32>, tensor<i32>, tensor<3x8xf32>, tensor<3x7xf32>, tensor<20x3x8xf32>, tensor<20x3x7xf32>
    cond {
      %c_19 = stablehlo.constant dense<20> : tensor<i32>
      %52 = stablehlo.compare LT, %iterArg_14, %c_19, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %52 : tensor<i1>
    } do {
      %52 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_14) : (tensor<20x3x7xf32>, tensor<i32>) -> tensor<3x7xf32>
      %53 = func.call @dynamic_index_in_dim_0(%iterArg_11, %iterArg_14) : (tensor<20x3x1xf32>, tensor<i32>) -> tensor<3x1xf32>
      %54 = func.call @dynamic_index_in_dim_1(%iterArg_12, %iterArg_14) : (tensor<20x3xf32>, tensor<i32>) -> tensor<3xf32>
      %cst_19 = stablehlo.constant dense<-1.000000e+05> : tensor<f32>
      %55 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<3x7xf32>
      %56 = stablehlo.multiply %55, %iterArg_13 : tensor<3x7xf32>
      %57 = stablehlo.add %iterArg_16, %56 : tensor<3x7xf32>
      %58 = stablehlo.slice %iterArg_15 [0:3, 0:1] : (tensor<3x8xf32>) -> tensor<3x1xf32>
      %59 = stablehlo.slice %iterArg_15 [0:3, 1:8] : (tensor<3x8xf32>) -> tensor<3x7xf32>
      %60 = stablehlo.maximum %59, %57 : tensor<3x7xf32>
      %61 = stablehlo.subtract %59, %57 : tensor<3x7xf32>
      %62 = stablehlo.compare NE, %61, %61, FLOAT : (tensor<3x7xf32>, tensor<3x7xf32>) -> tensor<3x7xi1>
      %63 = stablehlo.add %59, %57 : tensor<3x7xf32>
      %64 = stablehlo.abs %61 : tensor<3x7xf32>
      %65 = stablehlo.negate %64 : tensor<3x7xf32>
      %66 = stablehlo.exponential %65 : tensor<3x7xf32>
      %67 = stablehlo.log_plus_one %66 : tensor<3x7xf32>
      %68 = stablehlo.add %60, %67 : tensor<3x7xf32>
      %69 = stablehlo.select %62, %63, %68 : tensor<3x7xi1>, tensor<3x7xf32>
      %70 = stablehlo.concatenate %58, %69, dim = 1 : (tensor<3x1xf32>, tensor<3x7xf32>) -> tensor<3x8xf32>
      %71 = stablehlo.slice %70 [0:3, 0:7] : (tensor<3x8xf32>) -> tensor<3x7xf32>
      %72 = stablehlo.add %71, %52 : tensor<3x7xf32>
      %73 = stablehlo.add %iterArg_16, %52 : tensor<3x7xf32>
      %74 = stablehlo.maximum %72, %73 : tensor<3x7xf32>
      %75 = stablehlo.subtract %72, %73 : tensor<3x7xf32>
      %76 = stablehlo.compare NE, %75, %75, FLOAT : (tensor<3x7xf32>, tensor<3x7xf32>) -> tensor<3x7xi1>
      %77 = stablehlo.add %72, %73 : tensor<3x7xf32>
      %78 = stablehlo.abs %75 : tensor<3x7xf32>
      %79 = stablehlo.negate %78 : tensor<3x7xf32>
      %80 = stablehlo.exponential %79 : tensor<3x7xf32>
      %81 = stablehlo.log_plus_one %80 : tensor<3x7xf32>
      %82 = stablehlo.add %74, %81 : tensor<3x7xf32>
      %83 = stablehlo.select %76, %77, %82 : tensor<3x7xi1>, tensor<3x7xf32>
      %84 = stablehlo.broadcast_in_dim %53, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x8xf32>
      %85 = stablehlo.add %70, %84 : tensor<3x8xf32>
      %86 = stablehlo.broadcast_in_dim %53, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x7xf32>
      %87 = stablehlo.add %iterArg_16, %86 : tensor<3x7xf32>
      %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %88 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<3x7xf32>
      %89 = stablehlo.subtract %88, %iterArg_13 : tensor<3x7xf32>
      %cst_21 = stablehlo.constant dense<-1.000000e+05> : tensor<f32>
      %90 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<3x7xf32>
      %91 = stablehlo.multiply %90, %89 : tensor<3x7xf32>
      %92 = stablehlo.add %87, %91 : tensor<3x7xf32>
      %93 = stablehlo.slice %85 [0:3, 0:1] : (tensor<3x8xf32>) -> tensor<3x1xf32>
      %94 = stablehlo.slice %85 [0:3, 1:8] : (tensor<3x8xf32>) -> tensor<3x7xf32>
      %95 = stablehlo.maximum %94, %92 : tensor<3x7xf32>
      %96 = stablehlo.subtract %94, %92 : tensor<3x7xf32>
      %97 = stablehlo.compare NE, %96, %96, FLOAT : (tensor<3x7xf32>, tensor<3x7xf32>) -> tensor<3x7xi1>
      %98 = stablehlo.add %94, %92 : tensor<3x7xf32>
      %99 = stablehlo.abs %96 : tensor<3x7xf32>
      %100 = stablehlo.negate %99 : tensor<3x7xf32>
      %101 = stablehlo.exponential %100 : tensor<3x7xf32>
      %102 = stablehlo.log_plus_one %101 : tensor<3x7xf32>
      %103 = stablehlo.add %95, %102 : tensor<3x7xf32>
      %104 = stablehlo.select %97, %98, %103 : tensor<3x7xi1>, tensor<3x7xf32>
      %105 = stablehlo.concatenate %93, %104, dim = 1 : (tensor<3x1xf32>, tensor<3x7xf32>) -> tensor<3x8xf32>
      %106 = stablehlo.reshape %54 : (tensor<3xf32>) -> tensor<3x1xf32>
      %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x7xf32>
      %108 = stablehlo.multiply %107, %iterArg_16 : tensor<3x7xf32>
      %cst_22 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %109 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<3x1xf32>
      %110 = stablehlo.subtract %109, %106 : tensor<3x1xf32>
      %111 = stablehlo.broadcast_in_dim %110, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x7xf32>
      %112 = stablehlo.multiply %111, %83 : tensor<3x7xf32>
      %113 = stablehlo.add %108, %112 : tensor<3x7xf32>
      %114 = stablehlo.broadcast_in_dim %106, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x8xf32>
      %115 = stablehlo.multiply %114, %iterArg_15 : tensor<3x8xf32>
      %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %116 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<3x1xf32>
      %117 = stablehlo.subtract %116, %106 : tensor<3x1xf32>
      %118 = stablehlo.broadcast_in_dim %117, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x8xf32>
      %119 = stablehlo.multiply %118, %105 : tensor<3x8xf32>
      %120 = stablehlo.add %115, %119 : tensor<3x8xf32>
      %121 = func.call @dynamic_update_index_in_dim(%iterArg_17, %120, %iterArg_14) : (tensor<20x3x8xf32>, tensor<3x8xf32>, tensor<i32>) -> tensor<20x3x8xf32>
      %122 = func.call @dynamic_update_index_in_dim_2(%iterArg_18, %113, %iterArg_14) : (tensor<20x3x7xf32>, tensor<3x7xf32>, tensor<i32>) -> tensor<20x3x7xf32>
      %c_24 = stablehlo.constant dense<1> : tensor<i32>
      %123 = stablehlo.add %iterArg_14, %c_24 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_11, %iterArg_12, %iterArg_13, %123, %120, %113, %121, %122 : tensor<20x3x7xf32>, tensor<20x3x1xf32>, tensor<20x3xf32>, tensor<3x7xf32>, tensor<i32>, tensor<3x8xf32>, tensor<3x7xf32>, tensor<20x3x8xf32>, tensor<20x3x7xf32>
    }
    %30 = stablehlo.slice %29#7 [19:20, 0:3, 0:8] : (tensor<20x3x8xf32>) -> tensor<1x3x8xf32>
    %31 = stablehlo.reshape %30 : (tensor<1x3x8xf32>) -> tensor<3x8xf32>
    %32 = stablehlo.slice %29#8 [19:20, 0:3, 0:7] : (tensor<20x3x7xf32>) -> tensor<1x3x7xf32>
    %33 = stablehlo.reshape %32 : (tensor<1x3x7xf32>) -> tensor<3x7xf32>
    %34 = stablehlo.slice %31 [0:3, 0:1] : (tensor<3x8xf32>) -> tensor<3x1xf32>
    %35 = stablehlo.slice %31 [0:3, 1:8] : (tensor<3x8xf32>) -> tensor<3x7xf32>
    %36 = stablehlo.maximum %35, %33 : tensor<3x7xf32>
    %37 = stablehlo.subtract %35, %33 : tensor<3x7xf32>
    %38 = stablehlo.compare NE, %37, %37, FLOAT : (tensor<3x7xf32>, tensor<3x7xf32>) -> tensor<3x7xi1>
    %39 = stablehlo.add %35, %33 : tensor<3x7xf32>
    %40 = stablehlo.abs %37 : tensor<3x7xf32>
    %41 = stablehlo.negate %40 : tensor<3x7xf32>
    %42 = stablehlo.exponential %41 : tensor<3x7xf32>
    %43 = stablehlo.log_plus_one %42 : tensor<3x7xf32>
    %44 = stablehlo.add %36, %43 : tensor<3x7xf32>
    %45 = stablehlo.select %38, %39, %44 : tensor<3x7xi1>, tensor<3x7xf32>
    %46 = stablehlo.concatenate %34, %45, dim = 1 : (tensor<3x1xf32>, tensor<3x7xf32>) -> tensor<3x8xf32>
    %c_10 = stablehlo.constant dense<19> : tensor<i32>
    %47 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %48 = "stablehlo.scatter"(%29#7, %47, %46) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      stablehlo.return %arg5 : tensor<f32>
    }) : (tensor<20x3x8xf32>, tensor<1xi32>, tensor<3x8xf32>) -> tensor<20x3x8xf32>
    %49 = call @_one_hot_3(%6) : (tensor<3xi32>) -> tensor<3x8xf32>
    %50 = stablehlo.dot_general %46, %49, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3xf32>
    %51 = stablehlo.negate %50 : tensor<3xf32>
    return %51 : tensor<3xf32>
  }
  func.func private @log_softmax(%arg0: tensor<3x20x6xf32>) -> tensor<3x20x6xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [2] : (tensor<3x20x6xf32>, tensor<f32>) -> tensor<3x20xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x20xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<3x20xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<3x20xf32>) -> tensor<3x20x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<3x20x1xf32>) -> tensor<3x20x6xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<3x20x6xf32>
    %6 = stablehlo.exponential %5 : tensor<3x20x6xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<3x20x6xf32>, tensor<f32>) -> tensor<3x20xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<3x20xf32>) -> tensor<3x20x1xf32>
    %9 = stablehlo.log %8 : tensor<3x20x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<3x20x1xf32>) -> tensor<3x20x6xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<3x20x6xf32>
    return %11 : tensor<3x20x6xf32>
  }
  func.func private @_pad(%arg0: tensor<3x6xf32>, %arg1: tensor<i32>) -> tensor<3x7xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<3x6xf32>, tensor<f32>) -> tensor<3x7xf32>
    return %1 : tensor<3x7xf32>
  }
  func.func private @_one_hot(%arg0: tensor<3x7xi32>) -> tensor<3x7x6xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3x7xi32>) -> tensor<3x7x1xi32>
    %1 = stablehlo.iota dim = 2 : tensor<1x1x6xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<3x7x1xi32>) -> tensor<3x7x6xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x6xi32>) -> tensor<3x7x6xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<3x7x6xi32>, tensor<3x7x6xi32>) -> tensor<3x7x6xi1>
    %5 = stablehlo.convert %4 : (tensor<3x7x6xi1>) -> tensor<3x7x6xf32>
    return %5 : tensor<3x7x6xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<20x3x7xf32>, %arg1: tensor<i32>) -> tensor<3x7xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3, 7] : (tensor<20x3x7xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x7xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3x7xf32>) -> tensor<3x7xf32>
    return %1 : tensor<3x7xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<20x3x1xf32>, %arg1: tensor<i32>) -> tensor<3x1xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3, 1] : (tensor<20x3x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3x1xf32>) -> tensor<3x1xf32>
    return %1 : tensor<3x1xf32>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<20x3xf32>, %arg1: tensor<i32>) -> tensor<3xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 3] : (tensor<20x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3xf32>) -> tensor<3xf32>
    return %1 : tensor<3xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<20x3x8xf32>, %arg1: tensor<3x8xf32>, %arg2: tensor<i32>) -> tensor<20x3x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x8xf32>) -> tensor<1x3x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<20x3x8xf32>, tensor<1x3x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<20x3x8xf32>
    return %1 : tensor<20x3x8xf32>
  }
  func.func private @dynamic_update_index_in_dim_2(%arg0: tensor<20x3x7xf32>, %arg1: tensor<3x7xf32>, %arg2: tensor<i32>) -> tensor<20x3x7xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x7xf32>) -> tensor<1x3x7xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<20x3x7xf32>, tensor<1x3x7xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<20x3x7xf32>
    return %1 : tensor<20x3x7xf32>
  }
  func.func private @_one_hot_3(%arg0: tensor<3xi32>) -> tensor<3x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x8xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<3x1xi32>) -> tensor<3x8xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x8xi32>) -> tensor<3x8xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<3x8xi32>, tensor<3x8xi32>) -> tensor<3x8xi1>
    %5 = stablehlo.convert %4 : (tensor<3x8xi1>) -> tensor<3x8xf32>
    return %5 : tensor<3x8xf32>
  }
}
