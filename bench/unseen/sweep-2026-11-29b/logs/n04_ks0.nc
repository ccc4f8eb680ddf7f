n04_size_offsets_in_coords.mlir:5:3: error: size KS = 0 is out of range (1 to 2^31-1)
