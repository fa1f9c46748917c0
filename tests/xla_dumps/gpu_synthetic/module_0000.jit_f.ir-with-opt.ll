; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@exponential_reduce_fusion.partial0_0_0 = internal unnamed_addr addrspace(3) global [8 x i32] undef, align 16

; Function Attrs: norecurse nounwind
define ptx_kernel void @exponential_reduce_fusion(ptr noalias readonly align 4 captures(none) %x.1, ptr noalias readonly align 4 captures(none) %y.1, ptr noalias writeonly align 16 captures(none) %exponential_reduce_fusion, ptr noalias writeonly align 16 captures(none) %exponential_reduce_fusion.1) local_unnamed_addr #0 {
entry:
  %ctaid_x = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %.6 = zext nneg i32 %ctaid_x to i64
  %tid_x = tail call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %.7 = zext nneg i32 %tid_x to i64
  %.9 = shl nuw nsw i64 %.6, 8
  %.10 = or disjoint i64 %.9, %.7
  %.11 = getelementptr inbounds nuw float, ptr %exponential_reduce_fusion.1, i64 %.10
  %.14 = getelementptr inbounds nuw float, ptr %x.1, i64 %.10
  %.15 = load float, ptr %.14, align 4
  %.18 = getelementptr inbounds nuw float, ptr %y.1, i64 %.10
  %.19 = load float, ptr %.18, align 4
  %.20 = fadd float %.15, %.19
  %.3.i = tail call float @llvm.maxnum.f32(float %.20, float -1.040000e+02)
  %.4.i = tail call float @llvm.minnum.f32(float %.3.i, float 8.900000e+01)
  %.5.i = tail call float @llvm.fmuladd.f32(float %.4.i, float 0x3FF7154760000000, float 5.000000e-01)
  %.6.i = tail call float @llvm.floor.f32(float %.5.i)
  %.7.i = tail call float @llvm.fmuladd.f32(float %.6.i, float 0xBFE6300000000000, float %.4.i)
  %.8.i = tail call float @llvm.fmuladd.f32(float %.6.i, float 0x3F2BD01060000000, float %.7.i)
  %.9.i = tail call float @llvm.fmuladd.f32(float %.8.i, float 0x3F2A0D2CE0000000, float 0x3F56E879C0000000)
  %.10.i = tail call float @llvm.fmuladd.f32(float %.9.i, float %.8.i, float 0x3F81112100000000)
  %.11.i = tail call float @llvm.fmuladd.f32(float %.10.i, float %.8.i, float 0x3FA5553820000000)
  %.12.i = tail call float @llvm.fmuladd.f32(float %.11.i, float %.8.i, float 0x3FC5555540000000)
  %.13.i = tail call float @llvm.fmuladd.f32(float %.12.i, float %.8.i, float 5.000000e-01)
  %.14.i = fmul float %.8.i, %.8.i
  %.15.i = tail call float @llvm.fmuladd.f32(float %.13.i, float %.14.i, float %.8.i)
  %.16.i = fadd float %.15.i, 1.000000e+00
  %.17.i = fptosi float %.6.i to i32
  %.18.i = ashr i32 %.17.i, 1
  %.19.i = sub i32 %.17.i, %.18.i
  %.20.i = shl i32 %.18.i, 23
  %.21.i = add i32 %.20.i, 1065353216
  %.22.i = bitcast i32 %.21.i to float
  %.23.i = fmul float %.16.i, %.22.i
  %.24.i = shl i32 %.19.i, 23
  %.25.i = add i32 %.24.i, 1065353216
  %.26.i = bitcast i32 %.25.i to float
  %.27.i = fmul float %.23.i, %.26.i
  %.28.i = fcmp uno float %.20, 0.000000e+00
  %.29.i = select i1 %.28.i, float %.20, float %.27.i
  store float %.29.i, ptr %.11, align 4
  %.47 = bitcast float %.29.i to i32
  %.48 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %.47, i32 16, i32 31)
  %.49 = bitcast i32 %.48 to float
  %.51 = fadd reassoc nsz float %.29.i, %.49
  %.54 = bitcast float %.51 to i32
  %.55 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %.54, i32 8, i32 31)
  %.56 = bitcast i32 %.55 to float
  %.58 = fadd reassoc nsz float %.51, %.56
  %.61 = bitcast float %.58 to i32
  %.62 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %.61, i32 4, i32 31)
  %.63 = bitcast i32 %.62 to float
  %.65 = fadd reassoc nsz float %.58, %.63
  %.68 = bitcast float %.65 to i32
  %.69 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %.68, i32 2, i32 31)
  %.70 = bitcast i32 %.69 to float
  %.72 = fadd reassoc nsz float %.65, %.70
  %.75 = bitcast float %.72 to i32
  %.76 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %.75, i32 1, i32 31)
  %.77 = bitcast i32 %.76 to float
  %.79 = fadd reassoc nsz float %.72, %.77
  %.81 = and i64 %.7, 31
  %.83 = icmp eq i64 %.81, 0
  br i1 %.83, label %r.exit.if, label %r.exit.endif

r.exit.if:                                        ; preds = %entry
  %0 = lshr exact i64 %.7, 3
  %.87 = getelementptr i8, ptr addrspace(3) @exponential_reduce_fusion.partial0_0_0, i64 %0
  store float %.79, ptr addrspace(3) %.87, align 4
  br label %r.exit.endif

r.exit.endif:                                     ; preds = %r.exit.if, %entry
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %cond = icmp eq i32 %tid_x, 0
  br i1 %cond, label %r.exit.endif.if, label %r.exit.endif.endif.endif

r.exit.endif.if:                                  ; preds = %r.exit.endif
  %.941 = load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @exponential_reduce_fusion.partial0_0_0, i64 4), align 4
  %.97 = fadd reassoc nsz float %.941, %.79
  %.1002 = load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @exponential_reduce_fusion.partial0_0_0, i64 8), align 8
  %.103 = fadd reassoc nsz float %.97, %.1002
  %.1063 = load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @exponential_reduce_fusion.partial0_0_0, i64 12), align 4
  %.109 = fadd reassoc nsz float %.103, %.1063
  %.1124 = load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @exponential_reduce_fusion.partial0_0_0, i64 16), align 16
  %.115 = fadd reassoc nsz float %.109, %.1124
  %.1185 = load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @exponential_reduce_fusion.partial0_0_0, i64 20), align 4
  %.121 = fadd reassoc nsz float %.115, %.1185
  %.1246 = load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @exponential_reduce_fusion.partial0_0_0, i64 24), align 8
  %.127 = fadd reassoc nsz float %.121, %.1246
  %.1307 = load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @exponential_reduce_fusion.partial0_0_0, i64 28), align 4
  %.133 = fadd reassoc nsz float %.127, %.1307
  %.142 = getelementptr inbounds nuw float, ptr %exponential_reduce_fusion, i64 %.6
  store float %.133, ptr %.142, align 4
  br label %r.exit.endif.endif.endif

r.exit.endif.endif.endif:                         ; preds = %r.exit.endif, %r.exit.endif.if
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.maxnum.f32(float, float) #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.minnum.f32(float, float) #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.floor.f32(float) #2

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #3

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #4

attributes #0 = { norecurse nounwind "nvvm.maxntid"="256,1,1" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #4 = { convergent nocallback nounwind }

!nvvm.annotations = !{}
