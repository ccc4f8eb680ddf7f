// Running Gram matrix of a batch of row blocks: G = X^T X (X is [B, R, 192], rows streamed 64 at a
// time; R need not divide 64), one loaded tile read as both operands of the dot (A with transpose_a,
// B N-major). After the loop: the diagonal, picked by iota == iota and reduced both ways (a row
// vector and a column vector, each used one way), and the correlation C = G / sqrt(d_i d_j).
// Outputs: G (f32), C (bf16), the diagonal (f32 vector).
module {
  func.func @gram(
      %X: !tile.desc<1x64x192xbf16> {tile.shape = affine_map<()[B, R] -> (B, R, 192)>},
      %G: !tile.desc<1x192x192xf32> {tile.shape = affine_map<()[B, R] -> (B, 192, 192)>},
      %C: !tile.desc<1x192x192xbf16> {tile.shape = affine_map<()[B, R] -> (B, 192, 192)>},
      %D: !tile.desc<1x192xf32> {tile.shape = affine_map<()[B, R] -> (B, 192)>},
      %B: index {tile.size = "B"}, %R: index {tile.size = "R"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, R] -> (B)>,
                  tile.defaults = {B = 132 : i64, R = 1000 : i64},
                  tile.warpgroups = array<i64: 1, 3>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %b = tile.program_id 0 : index
    %z = arith.constant dense<0.0> : tensor<192x192xf32>
    %zi = arith.constant 0 : index
    %g = scf.for %r = %c0 to %R step %c64 iter_args(%acc = %z) -> (tensor<192x192xf32>) {
      %x = tile.load %X[%b, %r, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 1, group = 0>} : !tile.desc<1x64x192xbf16> -> tensor<64x192xbf16>
      %d = tile.dot %x, %x, %acc {transpose_a, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1>} : tensor<64x192xbf16>, tensor<64x192xbf16> -> tensor<192x192xf32>
      scf.yield %d : tensor<192x192xf32>
    }
    tile.store %G[%b, %c0, %c0], %g : !tile.desc<1x192x192xf32>, tensor<192x192xf32>
    %rows = tile.iota %zi, dim = 0 : tensor<192x192xi32>
    %cols = tile.iota %zi, dim = 1 : tensor<192x192xi32>
    %eq = arith.cmpi eq, %rows, %cols : tensor<192x192xi32>
    %zf = arith.constant dense<0.0> : tensor<192x192xf32>
    %dg = arith.select %eq, %g, %zf : tensor<192x192xi1>, tensor<192x192xf32>
    %drow = tile.reduce sum %dg, dim = 1 : tensor<192x192xf32> -> tensor<192xf32>
    %dcol = tile.reduce sum %dg, dim = 0 : tensor<192x192xf32> -> tensor<192xf32>
    %rr = math.rsqrt %drow : tensor<192xf32>
    %rc = math.rsqrt %dcol : tensor<192xf32>
    %rrb = tile.broadcast %rr, dim = 1 : tensor<192xf32> -> tensor<192x192xf32>
    %rcb = tile.broadcast %rc, dim = 0 : tensor<192xf32> -> tensor<192x192xf32>
    %c1 = arith.mulf %g, %rrb : tensor<192x192xf32>
    %c2 = arith.mulf %c1, %rcb : tensor<192x192xf32>
    %cb = arith.truncf %c2 : tensor<192x192xf32> to tensor<192x192xbf16>
    tile.store %C[%b, %c0, %c0], %cb : !tile.desc<1x192x192xbf16>, tensor<192x192xbf16>
    tile.store %D[%b, %c0], %drow : !tile.desc<1x192xf32>, tensor<192xf32>
    return
  }
}
