// RUN: stagecraft-opt %assets/gemm.mlir -tile-lower-to-nvvm="timeline=true timeline-ctas=3 timeline-capacity=100" | FileCheck %s
// RUN: stagecraft-opt %assets/gemm.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=PLAIN
// RUN: not stagecraft-opt %assets/gemm.mlir -tile-lower-to-nvvm="target=sm_100a timeline=true" 2>&1 | FileCheck %s --check-prefix=SM100
// RUN: stagecraft-opt %assets/gemm.mlir -tile-apply-schedule=file=%assets/schedules/consumers_staggered.json -tile-lower-to-nvvm="timeline=true" | FileCheck %s --check-prefix=STAGGERED

// The instrumented variant (docs/bundle-format.md, "The instrumented kernel"):
// the kernel's parameters plus a trailing global pointer, the event buffer,
// and what it records described for the driver.
// CHECK: llvm.func @gemm(
// CHECK-SAME: %arg5: i32, %[[BUF:.*]]: !llvm.ptr<1>)
// CHECK-SAME: stagecraft.timeline = {capacity = 100 : i64, ctas = 3 : i64,
// CHECK-SAME: units = [{group = 0 : i64, id = 0 : i64, name = "loadA"}, {group = 0 : i64, id = 1 : i64, name = "loadB"}, {group = 1 : i64, id = 2 : i64, name = "MMA"}, {group = 1 : i64, id = 3 : i64, kind = "epilogue", name = "epilogue"}]
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
// A null buffer (the runner's launch recording nothing): no CTA is sampled.
// CHECK: %[[ADDR:.*]] = llvm.ptrtoint %[[BUF]] : !llvm.ptr<1> to i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[HASBUF:.*]] = arith.cmpi ne, %[[ADDR]], %[[ZERO]]
// CHECK: arith.andi %{{.*}}, %[[HASBUF]]
// The producer's thread 0 records into region (slot * 3 + 0) of 16 + 16 * 100 bytes.
// CHECK: nvvm.setmaxregister decrease
// CHECK: %[[C1616:.*]] = arith.constant 1616 : i64
// CHECK: llvm.getelementptr %[[BUF]]
// Each load unit, at its start: the record {stamp, unit, iteration} while
// there is room, the count either way, before the unit's wait and issue:
// one asm, one 16-byte store, no branch (a branch between a wgmma and its
// wait made ptxas inject a warpgroup.wait), nothing after the unit (work
// there slowed the recording warp groups: TimelineProbes.h).
// CHECK: scf.for
// CHECK: %[[N0:.*]] = llvm.load %[[COUNTER]]
// CHECK-NEXT: arith.constant 100 : i32
// CHECK-NEXT: %[[ROOM:.*]] = arith.cmpi ult, %[[N0]]
// CHECK-NEXT: %[[KEEP:.*]] = arith.andi %[[ON:.*]], %[[ROOM]]
// CHECK-NOT: scf.if
// CHECK: %[[FLAG:.*]] = arith.extui %[[KEEP]] : i1 to i32
// CHECK-NEXT: %[[UNIT0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: llvm.inline_asm has_side_effects {{.*}}"{\0A.reg .pred p;\0A.reg .u64 t;\0A.reg .b32 lo, hi;\0Asetp.ne.b32 p, $0, 0;\0A@p mov.u64 t, %globaltimer;\0A@p mov.b64 {lo, hi}, t;\0A@p st.global.v4.b32 [$1], {lo, hi, $2, $3};\0A}", "r,l,r,r" %[[FLAG]], %{{.*}}, %[[UNIT0]], %{{.*}} : (i32, i64, i32, i32) -> ()
// CHECK-NEXT: %[[INC:.*]] = arith.extui %[[ON]] : i1 to i32
// CHECK-NEXT: %[[N1:.*]] = arith.addi %[[N0]], %[[INC]]
// CHECK-NEXT: llvm.store %[[N1]], %[[COUNTER]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// After the tile's loop an end marker (unit -1), then, at the end of the
// producer's code, no other record: the header, count and %smid.
// CHECK: %[[END:.*]] = arith.constant -1 : i32
// CHECK-NEXT: llvm.inline_asm has_side_effects {{.*}}st.global.v4.b32{{.*}} %[[END]]
// CHECK-NOT: st.global.v4.b32
// CHECK: %[[SM:.*]] = nvvm.read.ptx.sreg.smid
// CHECK-NEXT: %[[N:.*]] = llvm.load %[[COUNTER]]
// CHECK-NEXT: llvm.store %[[N]], %[[REGION:.*]] {alignment = 8 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: arith.constant 4 : i64
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[REGION]]
// CHECK-NEXT: llvm.store %[[SM]], %[[AT]]
// Consumers: region 1 + the consumer warp group, thread 0 of each records MMA
// (unit 2) before its wait and wgmma; after the loop the epilogue (unit 3, the
// id after the loop's) at iteration trip count, and an end marker after its
// stores.
// CHECK: nvvm.setmaxregister increase
// CHECK: arith.constant 128 : i32
// CHECK: llvm.inline_asm has_side_effects {{.*}}st.global.v4.b32{{.*}}, %c2_i32{{[_0-9]*}}, %{{[0-9]+}} :
// CHECK: wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: %[[EPI:.*]] = arith.constant 3 : i32
// CHECK-NEXT: llvm.inline_asm has_side_effects {{.*}}st.global.v4.b32{{.*}} %[[EPI]], %{{[0-9]+}} :
// CHECK-NOT: st.global.v4.b32
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: arith.constant -1 : i32
// CHECK-NEXT: llvm.inline_asm has_side_effects {{.*}}st.global.v4.b32
// CHECK-NOT: st.global.v4.b32
// CHECK: nvvm.read.ptx.sreg.smid

// The kernel itself has none of it.
// PLAIN: llvm.func @gemm(
// PLAIN-SAME: %arg5: i32)
// PLAIN-NOT: stagecraft.timeline
// PLAIN-NOT: globaltimer
// PLAIN-NOT: smid

// Staggered consumers: the wait for the turn at the tensor cores is no
// unit's (as the predicted timeline has it): an end marker before it, the
// dot's start record after it.
// STAGGERED: nvvm.setmaxregister increase
// STAGGERED: scf.for
// STAGGERED: %[[END:.*]] = arith.constant -1 : i32
// STAGGERED-NEXT: llvm.inline_asm has_side_effects {{.*}}st.global.v4.b32{{.*}} %[[END]]
// STAGGERED-NOT: st.global.v4.b32
// STAGGERED: nvvm.barrier id
// STAGGERED: llvm.inline_asm has_side_effects {{.*}}st.global.v4.b32{{.*}}, %c2_i32{{[_0-9]*}}, %{{[0-9]+}} :
// STAGGERED: wgmma.mma_async

// SM100: error: tile-lower-to-nvvm: timeline=true needs target sm_90a
