// RUN: stagecraft-opt %assets/gemm.mlir -tile-lower-to-nvvm="timeline=true timeline-ctas=3 timeline-capacity=100" | FileCheck %s
// RUN: stagecraft-opt %assets/gemm.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=PLAIN
// RUN: not stagecraft-opt %assets/gemm.mlir -tile-lower-to-nvvm="target=sm_100a timeline=true" 2>&1 | FileCheck %s --check-prefix=SM100

// The instrumented variant (docs/bundle-format.md, "The instrumented kernel"):
// the kernel's parameters plus a trailing global pointer, the event buffer,
// and what it records described for the driver.
// CHECK: llvm.func @gemm(
// CHECK-SAME: %arg5: i32, %[[BUF:.*]]: !llvm.ptr<1>)
// CHECK-SAME: stagecraft.timeline = {capacity = 100 : i64, ctas = 3 : i64,
// CHECK-SAME: units = [{group = 0 : i64, id = 0 : i64, name = "loadA"}, {group = 0 : i64, id = 1 : i64, name = "loadB"}, {group = 1 : i64, id = 2 : i64, name = "MMA"}]
// CHECK-SAME: warp_groups = [{name = "producer", role = "producer"}, {name = "consumer 0", role = "consumer"}, {name = "consumer 1", role = "consumer"}]
// The record counter, then the sampled-CTA guard: the linear CTA id, the
// stride (CTAs / min(3, CTAs)) and the slot; the registers read in asm of
// their own (merged into the kernel's reads, they would move those).
// CHECK: %[[COUNTER:.*]] = llvm.alloca
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.u32 $0, %ctaid.x;", "=r"
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.u32 $0, %nctaid.z;", "=r"
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: %[[SLOTS:.*]] = arith.minui %{{.*}}, %[[C3]]
// CHECK: %[[STRIDE:.*]] = arith.divui %[[TOTAL:.*]], %[[SLOTS]]
// CHECK: %[[SLOT:.*]] = arith.divui %[[LINEAR:.*]], %[[STRIDE]]
// CHECK: arith.cmpi ult, %[[SLOT]], %[[SLOTS]]
// CHECK: arith.remui %[[LINEAR]], %[[STRIDE]]
// The producer's thread 0 records into region (slot * 3 + 0) of 16 + 24 * 100 bytes.
// CHECK: nvvm.setmaxregister decrease
// CHECK: %[[C2416:.*]] = arith.constant 2416 : i64
// CHECK: llvm.getelementptr %[[BUF]]
// Each load unit: a stamp before (0 outside the recording threads) and the
// tag {unit, iteration} packed into one 64-bit register there too, the
// issue, then the record {start, end, tag} while there is room, the count
// either way: one asm of predicated stores, no branch (a branch between a
// wgmma and its wait, or a store after a wgmma of the registers made from
// the unit's iteration, made ptxas inject a warpgroup.wait).
// CHECK: llvm.inline_asm has_side_effects {{.*}}@p mov.u64 $0, %globaltimer;
// CHECK: %[[UNIT0:.*]] = arith.constant 0 : i32
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.b64 $0, {$1, $2};", "=l,r,r" %[[UNIT0]], %{{.*}} : (i32, i32) -> i64
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: %[[ON:.*]] = arith.andi
// CHECK-NEXT: %[[N0:.*]] = llvm.load %[[COUNTER]]
// CHECK-NEXT: arith.constant 100 : i32
// CHECK-NEXT: %[[ROOM:.*]] = arith.cmpi ult, %[[N0]]
// CHECK-NEXT: %[[KEEP:.*]] = arith.andi %[[ON]], %[[ROOM]]
// CHECK-NOT: scf.if
// CHECK: %[[FLAG:.*]] = arith.extui %[[KEEP]] : i1 to i32
// CHECK: llvm.inline_asm has_side_effects {{.*}}"{\0A.reg .pred p;\0A.reg .u64 t;\0Asetp.ne.b32 p, $0, 0;\0A@p mov.u64 t, %globaltimer;\0A@p st.global.u64 [$1], $2;\0A@p st.global.u64 [$1+8], t;\0A@p st.global.u64 [$1+16], $3;\0A}", "r,l,l,l" %[[FLAG]]
// CHECK-NEXT: %[[INC:.*]] = arith.extui %[[ON]] : i1 to i32
// CHECK-NEXT: %[[N1:.*]] = arith.addi %[[N0]], %[[INC]]
// CHECK-NEXT: llvm.store %[[N1]], %[[COUNTER]]
// The header at the end of the producer's loop: count, %smid.
// CHECK: %[[SM:.*]] = nvvm.read.ptx.sreg.smid
// CHECK-NEXT: %[[N:.*]] = llvm.load %[[COUNTER]]
// CHECK-NEXT: llvm.store %[[N]], %[[REGION:.*]] {alignment = 8 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: arith.constant 4 : i64
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[REGION]]
// CHECK-NEXT: llvm.store %[[SM]], %[[AT]]
// Consumers: region 1 + the consumer warp group, thread 0 of each records MMA (unit 2).
// CHECK: nvvm.setmaxregister increase
// CHECK: arith.constant 128 : i32
// CHECK: llvm.inline_asm has_side_effects {{.*}}%globaltimer
// CHECK: %[[UNIT2:.*]] = arith.constant 2 : i32
// CHECK: "mov.b64 $0, {$1, $2};", "=l,r,r" %[[UNIT2]]
// CHECK: wgmma.mma_async
// CHECK: @p st.global.u64 [$1+16], $3;
// CHECK: nvvm.read.ptx.sreg.smid

// The kernel itself has none of it.
// PLAIN: llvm.func @gemm(
// PLAIN-SAME: %arg5: i32)
// PLAIN-NOT: stagecraft.timeline
// PLAIN-NOT: globaltimer
// PLAIN-NOT: smid

// SM100: error: tile-lower-to-nvvm: timeline=true needs target sm_90a
