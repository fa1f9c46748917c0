; ModuleID = '__compute_module_subtract_exponential_fusion_kernel_module'
source_filename = "__compute_module_subtract_exponential_fusion_kernel_module"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%XLA_CPU_KernelCallFrame = type { ptr, ptr, i64, ptr }
%XLA_CPU_KernelArg = type { ptr, i64 }
%kernel_dim3 = type { i64, i64, i64 }

; Function Attrs: uwtable
define ptr @subtract_exponential_fusion(ptr %0) #0 {
  %2 = getelementptr inbounds %XLA_CPU_KernelCallFrame, ptr %0, i32 0, i32 3
  %3 = load ptr, ptr %2, align 8, !invariant.load !3
  %4 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 0, i32 0
  %5 = load ptr, ptr %4, align 8, !invariant.load !3, !dereferenceable !4
  %6 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 1, i32 0
  %7 = load ptr, ptr %6, align 8, !invariant.load !3, !dereferenceable !4
  %8 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 2, i32 0
  %9 = load ptr, ptr %8, align 8, !invariant.load !3, !dereferenceable !5
  %10 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 3, i32 0
  %11 = load ptr, ptr %10, align 8, !invariant.load !3, !dereferenceable !4
  %12 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 4, i32 0
  %13 = load ptr, ptr %12, align 8, !invariant.load !3, !dereferenceable !6
  %14 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 5, i32 0
  %15 = load ptr, ptr %14, align 8, !invariant.load !3, !dereferenceable !6
  %16 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 6, i32 0
  %17 = load ptr, ptr %16, align 8, !invariant.load !3, !dereferenceable !5
  %18 = getelementptr inbounds %XLA_CPU_KernelCallFrame, ptr %0, i32 0, i32 1
  %19 = load ptr, ptr %18, align 8
  %20 = getelementptr inbounds %kernel_dim3, ptr %19, i32 0, i32 0
  %21 = load i64, ptr %20, align 4, !invariant.load !3
  %22 = getelementptr inbounds %kernel_dim3, ptr %19, i32 0, i32 1
  %23 = load i64, ptr %22, align 4, !invariant.load !3
  %24 = getelementptr inbounds %kernel_dim3, ptr %19, i32 0, i32 2
  %25 = load i64, ptr %24, align 4, !invariant.load !3
  call void @subtract_exponential_fusion_wrapped(ptr %5, ptr %7, ptr %9, ptr %11, ptr %13, ptr %15, ptr %17, i64 %21, i64 %23, i64 %25)
  ret ptr null
}

; Function Attrs: alwaysinline
define internal void @subtract_exponential_fusion_wrapped(ptr noalias align 64 dereferenceable(16) %0, ptr noalias align 64 dereferenceable(16) %1, ptr noalias align 64 dereferenceable(128) %2, ptr noalias align 64 dereferenceable(16) %3, ptr noalias align 64 dereferenceable(32) %4, ptr noalias align 64 dereferenceable(32) %5, ptr noalias align 64 dereferenceable(128) %6, i64 %7, i64 %8, i64 %9) #1 {
  br label %11

11:                                               ; preds = %43, %10
  %12 = phi i64 [ %44, %43 ], [ 0, %10 ]
  %13 = icmp slt i64 %12, 4
  br i1 %13, label %14, label %45

14:                                               ; preds = %11
  %15 = getelementptr inbounds [4 x float], ptr %3, i32 0, i64 %12
  %16 = load float, ptr %15, align 4, !invariant.load !3
  %17 = fmul float %16, 1.250000e-01
  %18 = getelementptr inbounds [4 x float], ptr %1, i32 0, i64 %12
  %19 = load float, ptr %18, align 4, !invariant.load !3
  %20 = getelementptr inbounds [4 x float], ptr %0, i32 0, i64 %12
  %21 = load float, ptr %20, align 4, !invariant.load !3
  %22 = mul nsw i64 %12, 8
  br label %23

23:                                               ; preds = %26, %14
  %24 = phi i64 [ %42, %26 ], [ 0, %14 ]
  %25 = icmp slt i64 %24, 8
  br i1 %25, label %26, label %43

26:                                               ; preds = %23
  %27 = add nsw i64 %22, %24
  %28 = getelementptr inbounds [32 x float], ptr %2, i32 0, i64 %27
  %29 = load float, ptr %28, align 4, !invariant.load !3
  %30 = fsub float %29, %17
  %31 = getelementptr inbounds [8 x float], ptr %4, i32 0, i64 %24
  %32 = load float, ptr %31, align 4, !invariant.load !3
  %33 = fmul float %19, %30
  %34 = getelementptr inbounds [8 x float], ptr %5, i32 0, i64 %24
  %35 = load float, ptr %34, align 4, !invariant.load !3
  %36 = fmul float %32, %33
  %37 = fadd float %35, %36
  %38 = fmul float %37, 3.000000e+00
  %39 = fsub float %38, %21
  %40 = call float @llvm.exp.f32(float %39)
  %41 = getelementptr inbounds [32 x float], ptr %6, i32 0, i64 %27
  store float %40, ptr %41, align 4
  %42 = add i64 %24, 1
  br label %23

43:                                               ; preds = %23
  %44 = add i64 %12, 1
  br label %11, !llvm.loop !7

45:                                               ; preds = %11
  ret void
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.exp.f32(float) #2

attributes #0 = { uwtable "frame-pointer"="all" "prefer-vector-width"="256" }
attributes #1 = { alwaysinline }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1}
!xla_cpu_memory_region_name = !{!2}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 1, !"xla_dylib_index", i64 3}
!2 = !{!"xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"}
!3 = !{}
!4 = !{i64 16}
!5 = !{i64 128}
!6 = !{i64 32}
!7 = distinct !{!7, !8}
!8 = !{!"llvm.loop.unroll.disable"}
