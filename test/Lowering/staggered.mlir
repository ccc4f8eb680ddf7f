// RUN: stagecraft-opt %assets/attention_fwd_d128.mlir -tile-apply-schedule=file=%assets/schedules/attention_cp_dot1_s3_staggered.json -tile-lower-to-nvvm | FileCheck %s

// Staggered consumers (FA3's ping-pong of two warp groups sharing a tile):
// warp group 1 gives warp group 0 the first turn (barrier 6, 256 threads)
// when the tile runs a kernel iteration ...
// CHECK: nvvm.barrier.arrive id = %c6_i32 number_of_threads = %c256_i32
// ... then, in each kernel iteration, a warp group waits for its turn
// (barrier 6 + its number) before the body's first dot (MMA0) ...
// CHECK: scf.for
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// ... issues MMA0 and MMA1 (the register-A wgmma of P V) ...
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, {$64, $65, $66, $67}
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// ... and hands the turn to the other (6 + 1 - its number), except warp
// group 1 after the tile's last kernel iteration.
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c256_i32
// The peeled last iteration takes its turn the same way.
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
