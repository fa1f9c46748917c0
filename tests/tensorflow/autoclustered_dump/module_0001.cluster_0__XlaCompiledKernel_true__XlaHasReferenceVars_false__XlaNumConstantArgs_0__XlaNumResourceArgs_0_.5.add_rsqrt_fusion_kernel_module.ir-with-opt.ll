; ModuleID = '__compute_module_add_rsqrt_fusion_kernel_module'
source_filename = "__compute_module_add_rsqrt_fusion_kernel_module"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: uwtable
define noalias noundef ptr @add_rsqrt_fusion(ptr readonly captures(none) %0) local_unnamed_addr #0 {
vector.ph:
  %1 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %2 = load ptr, ptr %1, align 8, !invariant.load !8
  %3 = load ptr, ptr %2, align 8, !invariant.load !8, !dereferenceable !9
  %4 = getelementptr inbounds nuw i8, ptr %2, i64 16
  %5 = load ptr, ptr %4, align 8, !invariant.load !8, !dereferenceable !10
  %6 = getelementptr inbounds nuw i8, ptr %2, i64 32
  %7 = load ptr, ptr %6, align 8, !invariant.load !8, !dereferenceable !10
  tail call void @llvm.experimental.noalias.scope.decl(metadata !11)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !14)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !16)
  %wide.load = load <4 x float>, ptr %5, align 4, !invariant.load !8, !alias.scope !14, !noalias !18
  %8 = fmul <4 x float> %wide.load, splat (float 1.250000e-01)
  %wide.vec = load <32 x float>, ptr %3, align 4, !invariant.load !8, !alias.scope !11, !noalias !19
  %strided.vec = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 0, i32 8, i32 16, i32 24>
  %strided.vec2 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 1, i32 9, i32 17, i32 25>
  %strided.vec3 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 2, i32 10, i32 18, i32 26>
  %strided.vec4 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 3, i32 11, i32 19, i32 27>
  %strided.vec5 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 4, i32 12, i32 20, i32 28>
  %strided.vec6 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 5, i32 13, i32 21, i32 29>
  %strided.vec7 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 6, i32 14, i32 22, i32 30>
  %strided.vec8 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 7, i32 15, i32 23, i32 31>
  %9 = fsub <4 x float> %strided.vec, %8
  %10 = fmul <4 x float> %9, %9
  %11 = fadd reassoc <4 x float> %10, zeroinitializer
  %12 = fsub <4 x float> %strided.vec2, %8
  %13 = fmul <4 x float> %12, %12
  %14 = fadd reassoc <4 x float> %11, %13
  %15 = fsub <4 x float> %strided.vec3, %8
  %16 = fmul <4 x float> %15, %15
  %17 = fadd reassoc <4 x float> %14, %16
  %18 = fsub <4 x float> %strided.vec4, %8
  %19 = fmul <4 x float> %18, %18
  %20 = fadd reassoc <4 x float> %17, %19
  %21 = fsub <4 x float> %strided.vec5, %8
  %22 = fmul <4 x float> %21, %21
  %23 = fadd reassoc <4 x float> %20, %22
  %24 = fsub <4 x float> %strided.vec6, %8
  %25 = fmul <4 x float> %24, %24
  %26 = fadd reassoc <4 x float> %23, %25
  %27 = fsub <4 x float> %strided.vec7, %8
  %28 = fmul <4 x float> %27, %27
  %29 = fadd reassoc <4 x float> %26, %28
  %30 = fsub <4 x float> %strided.vec8, %8
  %31 = fmul <4 x float> %30, %30
  %32 = fadd reassoc <4 x float> %29, %31
  %33 = fmul <4 x float> %32, splat (float 1.250000e-01)
  %34 = fadd <4 x float> %33, splat (float 0x3EE4F8B580000000)
  %35 = extractelement <4 x float> %34, i64 0
  %36 = extractelement <4 x float> %34, i64 1
  %37 = extractelement <4 x float> %34, i64 2
  %38 = extractelement <4 x float> %34, i64 3
  %39 = shufflevector <4 x float> %34, <4 x float> <float poison, float undef, float undef, float undef>, <4 x i32> <i32 0, i32 5, i32 6, i32 7>
  %y_approx.i = call <4 x float> @llvm.x86.sse.rsqrt.ss(<4 x float> %39)
  %y_approx1.i = extractelement <4 x float> %y_approx.i, i64 0
  %40 = fmul float %35, %y_approx1.i
  %41 = fmul float %y_approx1.i, -5.000000e-01
  %42 = fmul float %40, %y_approx1.i
  %43 = fadd float %42, -1.000000e+00
  %44 = fmul float %41, %43
  %45 = fadd float %44, %y_approx1.i
  %use_hw_approx_mask.i = call i1 @llvm.is.fpclass.f32(float %35, i32 732)
  %result.i = select i1 %use_hw_approx_mask.i, float %y_approx1.i, float %45
  %46 = shufflevector <4 x float> %34, <4 x float> <float poison, float undef, float undef, float undef>, <4 x i32> <i32 1, i32 5, i32 6, i32 7>
  %y_approx.i9 = call <4 x float> @llvm.x86.sse.rsqrt.ss(<4 x float> %46)
  %y_approx1.i10 = extractelement <4 x float> %y_approx.i9, i64 0
  %47 = fmul float %36, %y_approx1.i10
  %48 = fmul float %y_approx1.i10, -5.000000e-01
  %49 = fmul float %47, %y_approx1.i10
  %50 = fadd float %49, -1.000000e+00
  %51 = fmul float %48, %50
  %52 = fadd float %51, %y_approx1.i10
  %use_hw_approx_mask.i13 = call i1 @llvm.is.fpclass.f32(float %36, i32 732)
  %result.i14 = select i1 %use_hw_approx_mask.i13, float %y_approx1.i10, float %52
  %53 = shufflevector <4 x float> %34, <4 x float> <float poison, float undef, float undef, float undef>, <4 x i32> <i32 2, i32 5, i32 6, i32 7>
  %y_approx.i15 = call <4 x float> @llvm.x86.sse.rsqrt.ss(<4 x float> %53)
  %y_approx1.i16 = extractelement <4 x float> %y_approx.i15, i64 0
  %54 = fmul float %37, %y_approx1.i16
  %55 = fmul float %y_approx1.i16, -5.000000e-01
  %56 = fmul float %54, %y_approx1.i16
  %57 = fadd float %56, -1.000000e+00
  %58 = fmul float %55, %57
  %59 = fadd float %58, %y_approx1.i16
  %use_hw_approx_mask.i19 = call i1 @llvm.is.fpclass.f32(float %37, i32 732)
  %result.i20 = select i1 %use_hw_approx_mask.i19, float %y_approx1.i16, float %59
  %60 = shufflevector <4 x float> %34, <4 x float> <float poison, float undef, float undef, float undef>, <4 x i32> <i32 3, i32 5, i32 6, i32 7>
  %y_approx.i21 = call <4 x float> @llvm.x86.sse.rsqrt.ss(<4 x float> %60)
  %y_approx1.i22 = extractelement <4 x float> %y_approx.i21, i64 0
  %61 = fmul float %38, %y_approx1.i22
  %62 = fmul float %y_approx1.i22, -5.000000e-01
  %63 = fmul float %61, %y_approx1.i22
  %64 = fadd float %63, -1.000000e+00
  %65 = fmul float %62, %64
  %66 = fadd float %65, %y_approx1.i22
  %use_hw_approx_mask.i25 = call i1 @llvm.is.fpclass.f32(float %38, i32 732)
  %result.i26 = select i1 %use_hw_approx_mask.i25, float %y_approx1.i22, float %66
  %67 = insertelement <4 x float> poison, float %result.i, i64 0
  %68 = insertelement <4 x float> %67, float %result.i14, i64 1
  %69 = insertelement <4 x float> %68, float %result.i20, i64 2
  %70 = insertelement <4 x float> %69, float %result.i26, i64 3
  store <4 x float> %70, ptr %7, align 4, !alias.scope !16, !noalias !20
  ret ptr null
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite)
declare void @llvm.experimental.noalias.scope.decl(metadata) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(none)
declare <4 x float> @llvm.x86.sse.rsqrt.ss(<4 x float>) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i1 @llvm.is.fpclass.f32(float, i32 immarg) #3

attributes #0 = { uwtable "frame-pointer"="all" "prefer-vector-width"="256" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite) }
attributes #2 = { nocallback nofree nosync nounwind willreturn memory(none) }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5}
!xla_cpu_memory_region_name = !{!6}
!llvm.ident = !{!7}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 1, !"xla_dylib_index", i64 0}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 8, !"PIC Level", i32 0}
!4 = !{i32 7, !"uwtable", i32 2}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = !{!"xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"}
!7 = !{!"clang version 18.1.8"}
!8 = !{}
!9 = !{i64 128}
!10 = !{i64 16}
!11 = !{!12}
!12 = distinct !{!12, !13, !"add_rsqrt_fusion_wrapped: argument 0"}
!13 = distinct !{!13, !"add_rsqrt_fusion_wrapped"}
!14 = !{!15}
!15 = distinct !{!15, !13, !"add_rsqrt_fusion_wrapped: argument 1"}
!16 = !{!17}
!17 = distinct !{!17, !13, !"add_rsqrt_fusion_wrapped: argument 2"}
!18 = !{!12, !17}
!19 = !{!15, !17}
!20 = !{!12, !15}
