// Streaming SwiGLU y = silu(a) * b over bf16 [R, 64] rows, unrolled by two: the loop steps 256
// rows and handles rows r and r + 128 with two loads of each input and two stores. Each program
// owns RC rows starting at pid * RC (the loop starts at a nonzero offset and stops at
// min(pid * RC + RC, R)).
module {
  func.func @swiglu2(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[R, RC] -> (R, 64)>},
      %Bv: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[R, RC] -> (R, 64)>},
      %Y: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[R, RC] -> (R, 64)>},
      %R: index {tile.size = "R"}, %RC: index {tile.size = "RC"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[R, RC] -> (R ceildiv RC)>,
                  tile.defaults = {R = 262144 : i64, RC = 2048 : i64}} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %pid = tile.program_id 0 : index
    %r0 = arith.muli %pid, %RC : index
    %r1a = arith.addi %r0, %RC : index
    %r1 = arith.minui %r1a, %R : index
    %one = arith.constant dense<1.0> : tensor<128x64xf32>
    scf.for %r = %r0 to %r1 step %c256 {
      %rb = arith.addi %r, %c128 : index
      %a0 = tile.load %A[%r, %c0] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b0 = tile.load %Bv[%r, %c0] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %a1 = tile.load %A[%rb, %c0] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b1 = tile.load %Bv[%rb, %c0] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %a0f = arith.extf %a0 : tensor<128x64xbf16> to tensor<128x64xf32>
      %b0f = arith.extf %b0 : tensor<128x64xbf16> to tensor<128x64xf32>
      %n0 = arith.negf %a0f : tensor<128x64xf32>
      %e0 = math.exp %n0 : tensor<128x64xf32>
      %d0 = arith.addf %e0, %one : tensor<128x64xf32>
      %s0 = arith.divf %a0f, %d0 : tensor<128x64xf32>
      %y0 = arith.mulf %s0, %b0f : tensor<128x64xf32>
      %y0b = arith.truncf %y0 : tensor<128x64xf32> to tensor<128x64xbf16>
      tile.store %Y[%r, %c0], %y0b : !tile.desc<128x64xbf16>, tensor<128x64xbf16>
      %a1f = arith.extf %a1 : tensor<128x64xbf16> to tensor<128x64xf32>
      %b1f = arith.extf %b1 : tensor<128x64xbf16> to tensor<128x64xf32>
      %n1 = arith.negf %a1f : tensor<128x64xf32>
      %e1 = math.exp %n1 : tensor<128x64xf32>
      %d1 = arith.addf %e1, %one : tensor<128x64xf32>
      %s1 = arith.divf %a1f, %d1 : tensor<128x64xf32>
      %y1 = arith.mulf %s1, %b1f : tensor<128x64xf32>
      %y1b = arith.truncf %y1 : tensor<128x64xf32> to tensor<128x64xbf16>
      tile.store %Y[%rb, %c0], %y1b : !tile.desc<128x64xbf16>, tensor<128x64xbf16>
    }
    return
  }
}
