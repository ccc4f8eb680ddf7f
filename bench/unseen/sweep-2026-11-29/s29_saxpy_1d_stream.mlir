// 1-D streaming kernel: y = a * x + y over f32 vectors of length L with a scalar a read from a
// one-element tensor; each program walks a chunk of CH elements 1024 at a time (1-D tiles
// loaded and stored in the loop).
module {
  func.func @saxpy(
      %X: !tile.desc<256xf32> {tile.shape = affine_map<()[L, CH] -> (L)>},
      %Yi: !tile.desc<256xf32> {tile.shape = affine_map<()[L, CH] -> (L)>},
      %A: !tile.desc<4xf32> {tile.shape = affine_map<()[L, CH] -> (1)>},
      %Yo: !tile.desc<256xf32> {tile.shape = affine_map<()[L, CH] -> (L)>},
      %L: index {tile.size = "L"}, %CH: index {tile.size = "CH"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[L, CH] -> (L ceildiv CH)>,
                  tile.defaults = {L = 16777216 : i64, CH = 131072 : i64}} {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %pid = tile.program_id 0 : index
    %s0 = arith.muli %pid, %CH : index
    %s1a = arith.addi %s0, %CH : index
    %s1 = arith.minui %s1a, %L : index
    %at = tile.load %A[%c0] : !tile.desc<4xf32> -> tensor<4xf32>
    %a = tensor.extract %at[%c0] : tensor<4xf32>
    %av = tensor.splat %a : tensor<256xf32>
    scf.for %i = %s0 to %s1 step %c256 {
      %x = tile.load %X[%i] : !tile.desc<256xf32> -> tensor<256xf32>
      %y = tile.load %Yi[%i] : !tile.desc<256xf32> -> tensor<256xf32>
      %ax = arith.mulf %x, %av : tensor<256xf32>
      %r = arith.addf %ax, %y : tensor<256xf32>
      tile.store %Yo[%i], %r : !tile.desc<256xf32>, tensor<256xf32>
    }
    return
  }
}
