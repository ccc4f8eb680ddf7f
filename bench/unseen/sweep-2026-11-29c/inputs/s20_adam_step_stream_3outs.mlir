// Elementwise-only streaming kernel (no dot): one Adam optimizer step over an [R, C] f32
// parameter matrix. Each program owns 64 columns and walks the rows 64 at a time: four loads
// (p, g, m, v) and three stores (p', m', v') per iteration; lr, betas, eps are constants.
module {
  func.func @adam(
      %P: !tile.desc<64x64xf32> {tile.shape = affine_map<()[R, C] -> (R, C)>},
      %G: !tile.desc<64x64xf32> {tile.shape = affine_map<()[R, C] -> (R, C)>},
      %Mi: !tile.desc<64x64xf32> {tile.shape = affine_map<()[R, C] -> (R, C)>},
      %Vi: !tile.desc<64x64xf32> {tile.shape = affine_map<()[R, C] -> (R, C)>, tile.init = array<f64: 0.0, 1.0>},
      %Po: !tile.desc<64x64xf32> {tile.shape = affine_map<()[R, C] -> (R, C)>},
      %Mo: !tile.desc<64x64xf32> {tile.shape = affine_map<()[R, C] -> (R, C)>},
      %Vo: !tile.desc<64x64xf32> {tile.shape = affine_map<()[R, C] -> (R, C)>},
      %R: index {tile.size = "R"}, %C: index {tile.size = "C"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[R, C] -> (C ceildiv 64)>,
                  tile.defaults = {R = 8192 : i64, C = 8192 : i64}} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %pc = tile.program_id 0 : index
    %col = arith.muli %pc, %c64 : index
    %b1 = arith.constant dense<0.9> : tensor<64x64xf32>
    %b1c = arith.constant dense<0.1> : tensor<64x64xf32>
    %b2 = arith.constant dense<0.999> : tensor<64x64xf32>
    %b2c = arith.constant dense<0.001> : tensor<64x64xf32>
    %lr = arith.constant dense<0.001> : tensor<64x64xf32>
    %eps = arith.constant dense<1.0e-8> : tensor<64x64xf32>
    scf.for %r = %c0 to %R step %c64 {
      %p = tile.load %P[%r, %col] : !tile.desc<64x64xf32> -> tensor<64x64xf32>
      %g = tile.load %G[%r, %col] : !tile.desc<64x64xf32> -> tensor<64x64xf32>
      %m = tile.load %Mi[%r, %col] : !tile.desc<64x64xf32> -> tensor<64x64xf32>
      %v = tile.load %Vi[%r, %col] : !tile.desc<64x64xf32> -> tensor<64x64xf32>
      %m1 = arith.mulf %m, %b1 : tensor<64x64xf32>
      %m2 = arith.mulf %g, %b1c : tensor<64x64xf32>
      %mn = arith.addf %m1, %m2 : tensor<64x64xf32>
      %g2 = arith.mulf %g, %g : tensor<64x64xf32>
      %v1 = arith.mulf %v, %b2 : tensor<64x64xf32>
      %v2 = arith.mulf %g2, %b2c : tensor<64x64xf32>
      %vn = arith.addf %v1, %v2 : tensor<64x64xf32>
      %sq = math.sqrt %vn : tensor<64x64xf32>
      %den = arith.addf %sq, %eps : tensor<64x64xf32>
      %upd = arith.divf %mn, %den : tensor<64x64xf32>
      %st = arith.mulf %upd, %lr : tensor<64x64xf32>
      %pn = arith.subf %p, %st : tensor<64x64xf32>
      tile.store %Po[%r, %col], %pn : !tile.desc<64x64xf32>, tensor<64x64xf32>
      tile.store %Mo[%r, %col], %mn : !tile.desc<64x64xf32>, tensor<64x64xf32>
      tile.store %Vo[%r, %col], %vn : !tile.desc<64x64xf32>, tensor<64x64xf32>
    }
    return
  }
}
