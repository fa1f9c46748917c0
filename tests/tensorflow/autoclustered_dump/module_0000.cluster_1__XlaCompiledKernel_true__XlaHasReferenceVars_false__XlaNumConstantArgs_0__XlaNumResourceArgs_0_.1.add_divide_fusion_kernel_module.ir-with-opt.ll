; ModuleID = '__compute_module_add_divide_fusion_kernel_module'
source_filename = "__compute_module_add_divide_fusion_kernel_module"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, target_mem0: none, target_mem1: none) uwtable
define noalias noundef ptr @add_divide_fusion(ptr readonly captures(none) %0) local_unnamed_addr #0 {
vector.ph:
  %1 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %2 = load ptr, ptr %1, align 8, !invariant.load !3
  %3 = load ptr, ptr %2, align 8, !invariant.load !3, !dereferenceable !4
  %4 = getelementptr inbounds nuw i8, ptr %2, i64 16
  %5 = load ptr, ptr %4, align 8, !invariant.load !3, !dereferenceable !4
  tail call void @llvm.experimental.noalias.scope.decl(metadata !5)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !8)
  %wide.vec = load <32 x float>, ptr %5, align 4, !invariant.load !3, !alias.scope !8, !noalias !5
  %wide.vec9 = load <32 x float>, ptr %3, align 4, !alias.scope !5, !noalias !8
  %6 = tail call <32 x float> @llvm.fabs.v32f32(<32 x float> %wide.vec)
  %7 = fadd <32 x float> %6, splat (float 1.000000e+00)
  %interleaved.vec = fdiv <32 x float> %wide.vec9, %7
  store <32 x float> %interleaved.vec, ptr %3, align 4, !alias.scope !5, !noalias !8
  ret ptr null
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite)
declare void @llvm.experimental.noalias.scope.decl(metadata) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <32 x float> @llvm.fabs.v32f32(<32 x float>) #2

attributes #0 = { nofree norecurse nosync nounwind memory(readwrite, target_mem0: none, target_mem1: none) uwtable "frame-pointer"="all" "prefer-vector-width"="256" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1}
!xla_cpu_memory_region_name = !{!2}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 1, !"xla_dylib_index", i64 0}
!2 = !{!"xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"}
!3 = !{}
!4 = !{i64 128}
!5 = !{!6}
!6 = distinct !{!6, !7, !"add_divide_fusion_wrapped: argument 0"}
!7 = distinct !{!7, !"add_divide_fusion_wrapped"}
!8 = !{!9}
!9 = distinct !{!9, !7, !"add_divide_fusion_wrapped: argument 1"}
