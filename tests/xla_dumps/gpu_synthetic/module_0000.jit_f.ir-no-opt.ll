; ModuleID = "jit_f"
target triple = "nvptx64-nvidia-cuda"
target datalayout = ""

define ptx_kernel void @"exponential_reduce_fusion"(ptr noalias align 4 %"x.1", ptr noalias align 4 %"y.1", ptr noalias align 16 %"exponential_reduce_fusion", ptr noalias align 16 %"exponential_reduce_fusion.1") nounwind
{
entry:
  %"acc" = alloca float
  br label %"body"
body:
  %"x.1.global" = addrspacecast ptr %"x.1" to ptr addrspace(1)
  %"x.1.g" = addrspacecast ptr addrspace(1) %"x.1.global" to ptr
  %"y.1.global" = addrspacecast ptr %"y.1" to ptr addrspace(1)
  %"y.1.g" = addrspacecast ptr addrspace(1) %"y.1.global" to ptr
  %"exponential_reduce_fusion.global" = addrspacecast ptr %"exponential_reduce_fusion" to ptr addrspace(1)
  %"exponential_reduce_fusion.g" = addrspacecast ptr addrspace(1) %"exponential_reduce_fusion.global" to ptr
  %"exponential_reduce_fusion.1.global" = addrspacecast ptr %"exponential_reduce_fusion.1" to ptr addrspace(1)
  %"exponential_reduce_fusion.1.g" = addrspacecast ptr addrspace(1) %"exponential_reduce_fusion.1.global" to ptr
  %"ctaid_x" = call i32 @"llvm.nvvm.read.ptx.sreg.ctaid.x"()
  %".6" = zext i32 %"ctaid_x" to i64
  %"tid_x" = call i32 @"llvm.nvvm.read.ptx.sreg.tid.x"()
  %".7" = zext i32 %"tid_x" to i64
  %".8" = add i64 0, %".7"
  %".9" = mul nsw i64 %".6", 256
  %".10" = add nsw i64 %".9", %".8"
  %".11" = getelementptr inbounds float, ptr %"exponential_reduce_fusion.1.g", i64 %".10"
  %".12" = mul nsw i64 %".6", 256
  %".13" = add nsw i64 %".12", %".8"
  %".14" = getelementptr inbounds float, ptr %"x.1.g", i64 %".13"
  %".15" = load float, ptr %".14", align 4
  %".16" = mul nsw i64 %".6", 256
  %".17" = add nsw i64 %".16", %".8"
  %".18" = getelementptr inbounds float, ptr %"y.1.g", i64 %".17"
  %".19" = load float, ptr %".18", align 4
  %".20" = fadd float %".15", %".19"
  %".21" = call float @"hloscope.exponential.f32"(float %".20")
  store float %".21", ptr %".11", align 4
  store float %".21", float* %"acc"
  %".24" = add i64 %".8", 256
  br label %"r.header"
r.header:
  %"r" = phi  i64 [%".24", %"body"], [%"r.next", %"r.body"]
  %".26" = icmp slt i64 %"r", 256
  br i1 %".26", label %"r.body", label %"r.exit"
r.body:
  %".28" = mul nsw i64 %".6", 256
  %".29" = add nsw i64 %".28", %"r"
  %".30" = getelementptr inbounds float, ptr %"exponential_reduce_fusion.1.g", i64 %".29"
  %".31" = mul nsw i64 %".6", 256
  %".32" = add nsw i64 %".31", %"r"
  %".33" = getelementptr inbounds float, ptr %"x.1.g", i64 %".32"
  %".34" = load float, ptr %".33", align 4
  %".35" = mul nsw i64 %".6", 256
  %".36" = add nsw i64 %".35", %"r"
  %".37" = getelementptr inbounds float, ptr %"y.1.g", i64 %".36"
  %".38" = load float, ptr %".37", align 4
  %".39" = fadd float %".34", %".38"
  %".40" = call float @"hloscope.exponential.f32"(float %".39")
  store float %".40", ptr %".30", align 4
  %".42" = load float, float* %"acc"
  %".43" = fadd reassoc nsz float %".42", %".40"
  store float %".43", float* %"acc"
  %"r.next" = add nsw i64 %"r", 256
  br label %"r.header"
r.exit:
  %".46" = load float, float* %"acc"
  %".47" = bitcast float %".46" to i32
  %".48" = call i32 @"llvm.nvvm.shfl.sync.bfly.i32"(i32 -1, i32 %".47", i32 16, i32 31)
  %".49" = bitcast i32 %".48" to float
  %".50" = load float, float* %"acc"
  %".51" = fadd reassoc nsz float %".50", %".49"
  store float %".51", float* %"acc"
  %".53" = load float, float* %"acc"
  %".54" = bitcast float %".53" to i32
  %".55" = call i32 @"llvm.nvvm.shfl.sync.bfly.i32"(i32 -1, i32 %".54", i32 8, i32 31)
  %".56" = bitcast i32 %".55" to float
  %".57" = load float, float* %"acc"
  %".58" = fadd reassoc nsz float %".57", %".56"
  store float %".58", float* %"acc"
  %".60" = load float, float* %"acc"
  %".61" = bitcast float %".60" to i32
  %".62" = call i32 @"llvm.nvvm.shfl.sync.bfly.i32"(i32 -1, i32 %".61", i32 4, i32 31)
  %".63" = bitcast i32 %".62" to float
  %".64" = load float, float* %"acc"
  %".65" = fadd reassoc nsz float %".64", %".63"
  store float %".65", float* %"acc"
  %".67" = load float, float* %"acc"
  %".68" = bitcast float %".67" to i32
  %".69" = call i32 @"llvm.nvvm.shfl.sync.bfly.i32"(i32 -1, i32 %".68", i32 2, i32 31)
  %".70" = bitcast i32 %".69" to float
  %".71" = load float, float* %"acc"
  %".72" = fadd reassoc nsz float %".71", %".70"
  store float %".72", float* %"acc"
  %".74" = load float, float* %"acc"
  %".75" = bitcast float %".74" to i32
  %".76" = call i32 @"llvm.nvvm.shfl.sync.bfly.i32"(i32 -1, i32 %".75", i32 1, i32 31)
  %".77" = bitcast i32 %".76" to float
  %".78" = load float, float* %"acc"
  %".79" = fadd reassoc nsz float %".78", %".77"
  store float %".79", float* %"acc"
  %".81" = and i64 %".7", 31
  %".82" = lshr i64 %".7", 5
  %".83" = icmp eq i64 %".81", 0
  br i1 %".83", label %"r.exit.if", label %"r.exit.endif"
r.exit.if:
  %".85" = load float, float* %"acc"
  %".86" = bitcast float %".85" to i32
  %".87" = getelementptr i32, ptr addrspace(3) @"exponential_reduce_fusion.partial0_0_0", i64 %".82"
  store i32 %".86", ptr addrspace(3) %".87"
  br label %"r.exit.endif"
r.exit.endif:
  call void @"llvm.nvvm.barrier0"()
  %".91" = icmp eq i64 %".7", 0
  br i1 %".91", label %"r.exit.endif.if", label %"r.exit.endif.endif"
r.exit.endif.if:
  %".93" = getelementptr i32, ptr addrspace(3) @"exponential_reduce_fusion.partial0_0_0", i64 1
  %".94" = load i32, ptr addrspace(3) %".93"
  %".95" = bitcast i32 %".94" to float
  %".96" = load float, float* %"acc"
  %".97" = fadd reassoc nsz float %".96", %".95"
  store float %".97", float* %"acc"
  %".99" = getelementptr i32, ptr addrspace(3) @"exponential_reduce_fusion.partial0_0_0", i64 2
  %".100" = load i32, ptr addrspace(3) %".99"
  %".101" = bitcast i32 %".100" to float
  %".102" = load float, float* %"acc"
  %".103" = fadd reassoc nsz float %".102", %".101"
  store float %".103", float* %"acc"
  %".105" = getelementptr i32, ptr addrspace(3) @"exponential_reduce_fusion.partial0_0_0", i64 3
  %".106" = load i32, ptr addrspace(3) %".105"
  %".107" = bitcast i32 %".106" to float
  %".108" = load float, float* %"acc"
  %".109" = fadd reassoc nsz float %".108", %".107"
  store float %".109", float* %"acc"
  %".111" = getelementptr i32, ptr addrspace(3) @"exponential_reduce_fusion.partial0_0_0", i64 4
  %".112" = load i32, ptr addrspace(3) %".111"
  %".113" = bitcast i32 %".112" to float
  %".114" = load float, float* %"acc"
  %".115" = fadd reassoc nsz float %".114", %".113"
  store float %".115", float* %"acc"
  %".117" = getelementptr i32, ptr addrspace(3) @"exponential_reduce_fusion.partial0_0_0", i64 5
  %".118" = load i32, ptr addrspace(3) %".117"
  %".119" = bitcast i32 %".118" to float
  %".120" = load float, float* %"acc"
  %".121" = fadd reassoc nsz float %".120", %".119"
  store float %".121", float* %"acc"
  %".123" = getelementptr i32, ptr addrspace(3) @"exponential_reduce_fusion.partial0_0_0", i64 6
  %".124" = load i32, ptr addrspace(3) %".123"
  %".125" = bitcast i32 %".124" to float
  %".126" = load float, float* %"acc"
  %".127" = fadd reassoc nsz float %".126", %".125"
  store float %".127", float* %"acc"
  %".129" = getelementptr i32, ptr addrspace(3) @"exponential_reduce_fusion.partial0_0_0", i64 7
  %".130" = load i32, ptr addrspace(3) %".129"
  %".131" = bitcast i32 %".130" to float
  %".132" = load float, float* %"acc"
  %".133" = fadd reassoc nsz float %".132", %".131"
  store float %".133", float* %"acc"
  br label %"r.exit.endif.endif"
r.exit.endif.endif:
  %".136" = icmp eq i64 %".7", 0
  br i1 %".136", label %"r.exit.endif.endif.if", label %"r.exit.endif.endif.endif"
r.exit.endif.endif.if:
  %".138" = getelementptr inbounds float, [4 x i8]* @"constant.0.zero.4", i64 0
  %".139" = load float, [4 x i8]* %".138", align 4
  %".140" = load float, float* %"acc"
  %".141" = fadd reassoc nsz float %".139", %".140"
  %".142" = getelementptr inbounds float, ptr %"exponential_reduce_fusion.g", i64 %".6"
  store float %".141", ptr %".142", align 4
  br label %"r.exit.endif.endif.endif"
r.exit.endif.endif.endif:
  ret void
}

@"constant.0.zero.4" = internal constant [4 x i8] c"\00\00\00\00", align 64
declare i32 @"llvm.nvvm.read.ptx.sreg.ctaid.x"()

declare i32 @"llvm.nvvm.read.ptx.sreg.tid.x"()

define internal float @"hloscope.exponential.f32"(float %".1") alwaysinline nounwind
{
entry:
  %".3" = call float @"llvm.maxnum.f32"(float %".1", float 0xc05a000000000000)
  %".4" = call float @"llvm.minnum.f32"(float %".3", float 0x4056400000000000)
  %".5" = call float @"llvm.fmuladd.f32"(float %".4", float 0x3ff7154760000000, float 0x3fe0000000000000)
  %".6" = call float @"llvm.floor.f32"(float %".5")
  %".7" = call float @"llvm.fmuladd.f32"(float %".6", float 0xbfe6300000000000, float %".4")
  %".8" = call float @"llvm.fmuladd.f32"(float %".6", float 0x3f2bd01060000000, float %".7")
  %".9" = call float @"llvm.fmuladd.f32"(float 0x3f2a0d2ce0000000, float %".8", float 0x3f56e879c0000000)
  %".10" = call float @"llvm.fmuladd.f32"(float %".9", float %".8", float 0x3f81112100000000)
  %".11" = call float @"llvm.fmuladd.f32"(float %".10", float %".8", float 0x3fa5553820000000)
  %".12" = call float @"llvm.fmuladd.f32"(float %".11", float %".8", float 0x3fc5555540000000)
  %".13" = call float @"llvm.fmuladd.f32"(float %".12", float %".8", float 0x3fe0000000000000)
  %".14" = fmul float %".8", %".8"
  %".15" = call float @"llvm.fmuladd.f32"(float %".13", float %".14", float %".8")
  %".16" = fadd float %".15", 0x3ff0000000000000
  %".17" = fptosi float %".6" to i32
  %".18" = ashr i32 %".17", 1
  %".19" = sub i32 %".17", %".18"
  %".20" = add i32 %".18", 127
  %".21" = shl i32 %".20", 23
  %".22" = bitcast i32 %".21" to float
  %".23" = fmul float %".16", %".22"
  %".24" = add i32 %".19", 127
  %".25" = shl i32 %".24", 23
  %".26" = bitcast i32 %".25" to float
  %".27" = fmul float %".23", %".26"
  %".28" = fcmp uno float %".1", %".1"
  %".29" = select  i1 %".28", float %".1", float %".27"
  ret float %".29"
}

declare float @"llvm.maxnum.f32"(float %".1", float %".2")

declare float @"llvm.minnum.f32"(float %".1", float %".2")

declare float @"llvm.fmuladd.f32"(float %".1", float %".2", float %".3")

declare float @"llvm.floor.f32"(float %".1")

declare i32 @"llvm.nvvm.shfl.sync.bfly.i32"(i32 %".1", i32 %".2", i32 %".3", i32 %".4")

@"exponential_reduce_fusion.partial0_0_0" = internal addrspace(3) global [8 x i32] undef, align 16
declare void @"llvm.nvvm.barrier0"()

!nvvm.annotations = !{ !0, !1, !2 }
!0 = !{ void (ptr, ptr, ptr, ptr)* @"exponential_reduce_fusion", !"maxntidx", i32 256 }
!1 = !{ void (ptr, ptr, ptr, ptr)* @"exponential_reduce_fusion", !"maxntidy", i32 1 }
!2 = !{ void (ptr, ptr, ptr, ptr)* @"exponential_reduce_fusion", !"maxntidz", i32 1 }
