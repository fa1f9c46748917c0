; ModuleID = '__compute_module_multiply_reduce_fusion_kernel_module'
source_filename = "__compute_module_multiply_reduce_fusion_kernel_module"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%XLA_CPU_KernelCallFrame = type { ptr, ptr, i64, ptr }
%XLA_CPU_KernelArg = type { ptr, i64 }
%kernel_dim3 = type { i64, i64, i64 }

; Function Attrs: uwtable
define ptr @multiply_reduce_fusion(ptr %0) #0 {
  %2 = getelementptr inbounds %XLA_CPU_KernelCallFrame, ptr %0, i32 0, i32 3
  %3 = load ptr, ptr %2, align 8, !invariant.load !3
  %4 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 0, i32 0
  %5 = load ptr, ptr %4, align 8, !invariant.load !3, !dereferenceable !4
  %6 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 1, i32 0
  %7 = load ptr, ptr %6, align 8, !invariant.load !3, !dereferenceable !5
  %8 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 2, i32 0
  %9 = load ptr, ptr %8, align 8, !invariant.load !3, !dereferenceable !4
  %10 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 3, i32 0
  %11 = load ptr, ptr %10, align 8, !invariant.load !3, !dereferenceable !6
  %12 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 4, i32 0
  %13 = load ptr, ptr %12, align 8, !invariant.load !3, !dereferenceable !6
  %14 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 5, i32 0
  %15 = load ptr, ptr %14, align 8, !invariant.load !3, !dereferenceable !4
  %16 = getelementptr inbounds %XLA_CPU_KernelCallFrame, ptr %0, i32 0, i32 1
  %17 = load ptr, ptr %16, align 8
  %18 = getelementptr inbounds %kernel_dim3, ptr %17, i32 0, i32 0
  %19 = load i64, ptr %18, align 4, !invariant.load !3
  %20 = getelementptr inbounds %kernel_dim3, ptr %17, i32 0, i32 1
  %21 = load i64, ptr %20, align 4, !invariant.load !3
  %22 = getelementptr inbounds %kernel_dim3, ptr %17, i32 0, i32 2
  %23 = load i64, ptr %22, align 4, !invariant.load !3
  call void @multiply_reduce_fusion_wrapped(ptr %5, ptr %7, ptr %9, ptr %11, ptr %13, ptr %15, i64 %19, i64 %21, i64 %23)
  ret ptr null
}

; Function Attrs: alwaysinline
define internal void @multiply_reduce_fusion_wrapped(ptr noalias align 64 dereferenceable(16) %0, ptr noalias align 64 dereferenceable(128) %1, ptr noalias align 64 dereferenceable(16) %2, ptr noalias align 64 dereferenceable(32) %3, ptr noalias align 64 dereferenceable(32) %4, ptr noalias align 64 dereferenceable(16) %5, i64 %6, i64 %7, i64 %8) #1 {
  br label %10

10:                                               ; preds = %40, %9
  %11 = phi i64 [ %42, %40 ], [ 0, %9 ]
  %12 = icmp slt i64 %11, 4
  br i1 %12, label %13, label %43

13:                                               ; preds = %10
  %14 = getelementptr inbounds [4 x float], ptr %2, i32 0, i64 %11
  %15 = load float, ptr %14, align 4, !invariant.load !3
  %16 = fmul float %15, 1.250000e-01
  %17 = getelementptr inbounds [4 x float], ptr %0, i32 0, i64 %11
  %18 = load float, ptr %17, align 4, !invariant.load !3
  %19 = mul nsw i64 %11, 8
  br label %20

20:                                               ; preds = %24, %13
  %21 = phi i64 [ %39, %24 ], [ 0, %13 ]
  %22 = phi float [ %38, %24 ], [ 0xFFF0000000000000, %13 ]
  %23 = icmp slt i64 %21, 8
  br i1 %23, label %24, label %40

24:                                               ; preds = %20
  %25 = add nsw i64 %19, %21
  %26 = getelementptr inbounds [32 x float], ptr %1, i32 0, i64 %25
  %27 = load float, ptr %26, align 4, !invariant.load !3
  %28 = fsub float %27, %16
  %29 = getelementptr inbounds [8 x float], ptr %3, i32 0, i64 %21
  %30 = load float, ptr %29, align 4, !invariant.load !3
  %31 = fmul float %18, %28
  %32 = getelementptr inbounds [8 x float], ptr %4, i32 0, i64 %21
  %33 = load float, ptr %32, align 4, !invariant.load !3
  %34 = fmul float %30, %31
  %35 = fadd float %33, %34
  %36 = fmul float %35, 3.000000e+00
  %37 = fcmp uge float %22, %36
  %38 = select i1 %37, float %22, float %36
  %39 = add i64 %21, 1
  br label %20

40:                                               ; preds = %20
  %41 = getelementptr inbounds [4 x float], ptr %5, i32 0, i64 %11
  store float %22, ptr %41, align 4
  %42 = add i64 %11, 1
  br label %10, !llvm.loop !7

43:                                               ; preds = %10
  ret void
}

attributes #0 = { uwtable "frame-pointer"="all" "prefer-vector-width"="256" }
attributes #1 = { alwaysinline }

!llvm.module.flags = !{!0, !1}
!xla_cpu_memory_region_name = !{!2}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 1, !"xla_dylib_index", i64 2}
!2 = !{!"xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"}
!3 = !{}
!4 = !{i64 16}
!5 = !{i64 128}
!6 = !{i64 32}
!7 = distinct !{!7, !8}
!8 = !{!"llvm.loop.unroll.disable"}
