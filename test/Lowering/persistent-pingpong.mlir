// RUN: stagecraft-opt %assets/persistent_gemm_pingpong.mlir -tile-lower-to-nvvm | FileCheck %s
// RUN: stagecraft-opt %assets/persistent_gemm_grouped.mlir -tile-lower-to-nvvm | FileCheck %s --check-prefix=COOP

// Ping-pong: a producer and two consumer warp groups, each a team of its own.
// CHECK: llvm.func @persistent_gemm_pingpong
// CHECK-SAME: nvvm.maxntid = array<i32: 384, 1, 1>
// Empty barriers: one arrival per warp of the one team that reads a slot.
// CHECK: nvvm.mbarrier.init %{{.*}}, %c4_i32
// The producer streams every tile's loads (no team test on its side). The
// tile's decode (grouped order: divisions by the group's size) is lowered
// once per tile, before the K loop; in the K loop only the ring's slot and
// round (by the constant 4 copies) are divided.
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: scf.for %[[TILE:.*]] = %{{.*}} iter_args
// CHECK: arith.divui %[[TILE]], %[[GROUP:[0-9]+]] : i32
// CHECK: arith.remui %[[TILE]], %[[GROUP]] : i32
// CHECK: scf.for
// CHECK-NOT: arith.divui %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %{{.*}}, box[%{{[0-9]+}}, %{{[0-9]+}}]
// CHECK: nvvm.setmaxregister increase 240
// The consumer thread splits into its team (warp group) and its index in it.
// CHECK: %[[CT:.*]] = arith.subi %{{.*}}, %c128_i32
// CHECK: %[[TEAM:.*]] = arith.divui %[[CT]], %c128
// CHECK: arith.remui %[[CT]], %c128
// Team 1 hands team 0 the first turn at the tensor cores (barrier 6), when
// the block has a tile.
// CHECK: arith.cmpi eq, %[[TEAM]], %c1
// CHECK: nvvm.barrier.arrive id = %c6_i32 number_of_threads = %c256_i32
// The tile loop: every team counts every tile; its own are every other one.
// CHECK: scf.for
// CHECK: %[[MINE:.*]] = arith.remui %{{.*}}, %c2_i32
// CHECK: arith.cmpi eq, %[[MINE]], %[[TEAM]]
// Its turn (barrier 6 + team, both teams' 256 threads), the main loop ...
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// CHECK: scf.for
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// ... the last slots released once every wgmma retired (the producer
// reuses them for the next tile) ...
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive
// ... then the turn goes to the other team (when it has a next tile), and
// the epilogue synchronizes the team's 128 threads only.
// CHECK: arith.subi %c1_i32{{.*}}, %[[TEAM]]
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c256_i32
// The tile's store coordinates (its decode: divisions) are made once, before
// the first panel: between a panel's barriers and its TMA store, where every
// thread of the team waits for the storing one, there is no division by a
// value that is not a constant (the lanes' own address math divides by 4 and 8).
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// CHECK-NOT: arith.divui %{{[0-9a-z]+}}, %{{[0-9]+}} : i32
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NOT: arith.divui %{{[0-9a-z]+}}, %{{[0-9]+}} : i32
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta

// Cooperative (the same structure, 128x256 tiles): no turns, one epilogue
// barrier for both consumer warp groups (256 threads), 8 arrivals a slot.
// COOP: nvvm.mbarrier.init %{{.*}}, %c8_i32
// COOP-NOT: nvvm.barrier.arrive
// COOP: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// COOP: nvvm.wgmma.wait.group.sync.aligned 0
// COOP: nvvm.mbarrier.arrive
// COOP: nvvm.barrier id = %c1_i32{{.*}} number_of_threads = %c256_i32
