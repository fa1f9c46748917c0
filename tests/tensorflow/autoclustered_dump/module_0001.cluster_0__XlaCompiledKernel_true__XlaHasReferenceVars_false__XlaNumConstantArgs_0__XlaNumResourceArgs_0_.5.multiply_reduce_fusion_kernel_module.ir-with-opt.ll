; ModuleID = '__compute_module_multiply_reduce_fusion_kernel_module'
source_filename = "__compute_module_multiply_reduce_fusion_kernel_module"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, target_mem0: none, target_mem1: none) uwtable
define noalias noundef ptr @multiply_reduce_fusion(ptr readonly captures(none) %0) local_unnamed_addr #0 {
vector.ph:
  %1 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %2 = load ptr, ptr %1, align 8, !invariant.load !3
  %3 = load ptr, ptr %2, align 8, !invariant.load !3, !dereferenceable !4
  %4 = getelementptr inbounds nuw i8, ptr %2, i64 16
  %5 = load ptr, ptr %4, align 8, !invariant.load !3, !dereferenceable !5
  %6 = getelementptr inbounds nuw i8, ptr %2, i64 32
  %7 = load ptr, ptr %6, align 8, !invariant.load !3, !dereferenceable !4
  %8 = getelementptr inbounds nuw i8, ptr %2, i64 80
  %9 = load ptr, ptr %8, align 8, !invariant.load !3, !dereferenceable !4
  tail call void @llvm.experimental.noalias.scope.decl(metadata !6)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !9)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !11)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !13)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !15)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !17)
  %10 = getelementptr inbounds nuw i8, ptr %2, i64 64
  %11 = load ptr, ptr %10, align 8, !invariant.load !3, !dereferenceable !19
  %12 = load <4 x float>, ptr %11, align 4
  %broadcast.splat59 = shufflevector <4 x float> %12, <4 x float> poison, <4 x i32> zeroinitializer
  %13 = getelementptr inbounds nuw i8, ptr %2, i64 48
  %14 = load ptr, ptr %13, align 8, !invariant.load !3, !dereferenceable !19
  %15 = load <4 x float>, ptr %14, align 4
  %broadcast.splat57 = shufflevector <4 x float> %15, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert26 = getelementptr inbounds nuw i8, ptr %11, i64 28
  %.pre27 = load float, ptr %.phi.trans.insert26, align 4, !invariant.load !3, !alias.scope !15, !noalias !20
  %broadcast.splatinsert54 = insertelement <4 x float> poison, float %.pre27, i64 0
  %broadcast.splat55 = shufflevector <4 x float> %broadcast.splatinsert54, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert24 = getelementptr inbounds nuw i8, ptr %14, i64 28
  %.pre25 = load float, ptr %.phi.trans.insert24, align 4, !invariant.load !3, !alias.scope !13, !noalias !21
  %broadcast.splatinsert52 = insertelement <4 x float> poison, float %.pre25, i64 0
  %broadcast.splat53 = shufflevector <4 x float> %broadcast.splatinsert52, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert22 = getelementptr inbounds nuw i8, ptr %11, i64 24
  %.pre23 = load float, ptr %.phi.trans.insert22, align 4, !invariant.load !3, !alias.scope !15, !noalias !20
  %broadcast.splatinsert50 = insertelement <4 x float> poison, float %.pre23, i64 0
  %broadcast.splat51 = shufflevector <4 x float> %broadcast.splatinsert50, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert20 = getelementptr inbounds nuw i8, ptr %14, i64 24
  %.pre21 = load float, ptr %.phi.trans.insert20, align 4, !invariant.load !3, !alias.scope !13, !noalias !21
  %broadcast.splatinsert48 = insertelement <4 x float> poison, float %.pre21, i64 0
  %broadcast.splat49 = shufflevector <4 x float> %broadcast.splatinsert48, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert18 = getelementptr inbounds nuw i8, ptr %11, i64 20
  %.pre19 = load float, ptr %.phi.trans.insert18, align 4, !invariant.load !3, !alias.scope !15, !noalias !20
  %broadcast.splatinsert46 = insertelement <4 x float> poison, float %.pre19, i64 0
  %broadcast.splat47 = shufflevector <4 x float> %broadcast.splatinsert46, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert16 = getelementptr inbounds nuw i8, ptr %14, i64 20
  %.pre17 = load float, ptr %.phi.trans.insert16, align 4, !invariant.load !3, !alias.scope !13, !noalias !21
  %broadcast.splatinsert44 = insertelement <4 x float> poison, float %.pre17, i64 0
  %broadcast.splat45 = shufflevector <4 x float> %broadcast.splatinsert44, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert14 = getelementptr inbounds nuw i8, ptr %11, i64 16
  %16 = load <4 x float>, ptr %.phi.trans.insert14, align 4
  %broadcast.splat43 = shufflevector <4 x float> %16, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert12 = getelementptr inbounds nuw i8, ptr %14, i64 16
  %17 = load <4 x float>, ptr %.phi.trans.insert12, align 4
  %broadcast.splat41 = shufflevector <4 x float> %17, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert10 = getelementptr inbounds nuw i8, ptr %11, i64 12
  %18 = load <4 x float>, ptr %.phi.trans.insert10, align 4
  %broadcast.splat39 = shufflevector <4 x float> %18, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert8 = getelementptr inbounds nuw i8, ptr %14, i64 12
  %19 = load <4 x float>, ptr %.phi.trans.insert8, align 4
  %broadcast.splat37 = shufflevector <4 x float> %19, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert6 = getelementptr inbounds nuw i8, ptr %11, i64 8
  %20 = load <4 x float>, ptr %.phi.trans.insert6, align 4
  %broadcast.splat35 = shufflevector <4 x float> %20, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert4 = getelementptr inbounds nuw i8, ptr %14, i64 8
  %21 = load <4 x float>, ptr %.phi.trans.insert4, align 4
  %broadcast.splat33 = shufflevector <4 x float> %21, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert2 = getelementptr inbounds nuw i8, ptr %11, i64 4
  %22 = load <4 x float>, ptr %.phi.trans.insert2, align 4
  %broadcast.splat31 = shufflevector <4 x float> %22, <4 x float> poison, <4 x i32> zeroinitializer
  %.phi.trans.insert = getelementptr inbounds nuw i8, ptr %14, i64 4
  %23 = load <4 x float>, ptr %.phi.trans.insert, align 4
  %broadcast.splat = shufflevector <4 x float> %23, <4 x float> poison, <4 x i32> zeroinitializer
  %wide.load = load <4 x float>, ptr %7, align 4, !invariant.load !3, !alias.scope !11, !noalias !22
  %24 = fmul <4 x float> %wide.load, splat (float 1.250000e-01)
  %wide.load60 = load <4 x float>, ptr %3, align 4, !invariant.load !3, !alias.scope !6, !noalias !23
  %wide.vec = load <32 x float>, ptr %5, align 4, !invariant.load !3, !alias.scope !9, !noalias !24
  %strided.vec = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 0, i32 8, i32 16, i32 24>
  %strided.vec61 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 1, i32 9, i32 17, i32 25>
  %strided.vec62 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 2, i32 10, i32 18, i32 26>
  %strided.vec63 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 3, i32 11, i32 19, i32 27>
  %strided.vec64 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 4, i32 12, i32 20, i32 28>
  %strided.vec65 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 5, i32 13, i32 21, i32 29>
  %strided.vec66 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 6, i32 14, i32 22, i32 30>
  %strided.vec67 = shufflevector <32 x float> %wide.vec, <32 x float> poison, <4 x i32> <i32 7, i32 15, i32 23, i32 31>
  %25 = fsub <4 x float> %strided.vec, %24
  %26 = fmul <4 x float> %wide.load60, %25
  %27 = fmul <4 x float> %broadcast.splat57, %26
  %28 = fadd <4 x float> %broadcast.splat59, %27
  %29 = fmul <4 x float> %28, splat (float 3.000000e+00)
  %30 = fcmp ogt <4 x float> %29, splat (float 0xFFF0000000000000)
  %31 = select <4 x i1> %30, <4 x float> %29, <4 x float> splat (float 0xFFF0000000000000)
  %32 = fsub <4 x float> %strided.vec61, %24
  %33 = fmul <4 x float> %wide.load60, %32
  %34 = fmul <4 x float> %broadcast.splat, %33
  %35 = fadd <4 x float> %broadcast.splat31, %34
  %36 = fmul <4 x float> %35, splat (float 3.000000e+00)
  %37 = fcmp olt <4 x float> %31, %36
  %38 = select <4 x i1> %37, <4 x float> %36, <4 x float> %31
  %39 = fsub <4 x float> %strided.vec62, %24
  %40 = fmul <4 x float> %wide.load60, %39
  %41 = fmul <4 x float> %broadcast.splat33, %40
  %42 = fadd <4 x float> %broadcast.splat35, %41
  %43 = fmul <4 x float> %42, splat (float 3.000000e+00)
  %44 = fcmp olt <4 x float> %38, %43
  %45 = select <4 x i1> %44, <4 x float> %43, <4 x float> %38
  %46 = fsub <4 x float> %strided.vec63, %24
  %47 = fmul <4 x float> %wide.load60, %46
  %48 = fmul <4 x float> %broadcast.splat37, %47
  %49 = fadd <4 x float> %broadcast.splat39, %48
  %50 = fmul <4 x float> %49, splat (float 3.000000e+00)
  %51 = fcmp olt <4 x float> %45, %50
  %52 = select <4 x i1> %51, <4 x float> %50, <4 x float> %45
  %53 = fsub <4 x float> %strided.vec64, %24
  %54 = fmul <4 x float> %wide.load60, %53
  %55 = fmul <4 x float> %broadcast.splat41, %54
  %56 = fadd <4 x float> %broadcast.splat43, %55
  %57 = fmul <4 x float> %56, splat (float 3.000000e+00)
  %58 = fcmp olt <4 x float> %52, %57
  %59 = select <4 x i1> %58, <4 x float> %57, <4 x float> %52
  %60 = fsub <4 x float> %strided.vec65, %24
  %61 = fmul <4 x float> %wide.load60, %60
  %62 = fmul <4 x float> %broadcast.splat45, %61
  %63 = fadd <4 x float> %broadcast.splat47, %62
  %64 = fmul <4 x float> %63, splat (float 3.000000e+00)
  %65 = fcmp olt <4 x float> %59, %64
  %66 = select <4 x i1> %65, <4 x float> %64, <4 x float> %59
  %67 = fsub <4 x float> %strided.vec66, %24
  %68 = fmul <4 x float> %wide.load60, %67
  %69 = fmul <4 x float> %broadcast.splat49, %68
  %70 = fadd <4 x float> %broadcast.splat51, %69
  %71 = fmul <4 x float> %70, splat (float 3.000000e+00)
  %72 = fcmp olt <4 x float> %66, %71
  %73 = select <4 x i1> %72, <4 x float> %71, <4 x float> %66
  %74 = fsub <4 x float> %strided.vec67, %24
  %75 = fmul <4 x float> %wide.load60, %74
  %76 = fmul <4 x float> %broadcast.splat53, %75
  %77 = fadd <4 x float> %broadcast.splat55, %76
  %78 = fmul <4 x float> %77, splat (float 3.000000e+00)
  %79 = fcmp olt <4 x float> %73, %78
  %80 = select <4 x i1> %79, <4 x float> %78, <4 x float> %73
  store <4 x float> %80, ptr %9, align 4, !alias.scope !17, !noalias !25
  ret ptr null
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite)
declare void @llvm.experimental.noalias.scope.decl(metadata) #1

attributes #0 = { nofree norecurse nosync nounwind memory(readwrite, target_mem0: none, target_mem1: none) uwtable "frame-pointer"="all" "prefer-vector-width"="256" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite) }

!llvm.module.flags = !{!0, !1}
!xla_cpu_memory_region_name = !{!2}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 1, !"xla_dylib_index", i64 2}
!2 = !{!"xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"}
!3 = !{}
!4 = !{i64 16}
!5 = !{i64 128}
!6 = !{!7}
!7 = distinct !{!7, !8, !"multiply_reduce_fusion_wrapped: argument 0"}
!8 = distinct !{!8, !"multiply_reduce_fusion_wrapped"}
!9 = !{!10}
!10 = distinct !{!10, !8, !"multiply_reduce_fusion_wrapped: argument 1"}
!11 = !{!12}
!12 = distinct !{!12, !8, !"multiply_reduce_fusion_wrapped: argument 2"}
!13 = !{!14}
!14 = distinct !{!14, !8, !"multiply_reduce_fusion_wrapped: argument 3"}
!15 = !{!16}
!16 = distinct !{!16, !8, !"multiply_reduce_fusion_wrapped: argument 4"}
!17 = !{!18}
!18 = distinct !{!18, !8, !"multiply_reduce_fusion_wrapped: argument 5"}
!19 = !{i64 32}
!20 = !{!7, !10, !12, !14, !18}
!21 = !{!7, !10, !12, !16, !18}
!22 = !{!7, !10, !14, !16, !18}
!23 = !{!10, !12, !14, !16, !18}
!24 = !{!7, !12, !14, !16, !18}
!25 = !{!7, !10, !12, !14, !16}
