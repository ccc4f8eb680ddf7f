bad/z09_warpgroups_i32.mlir:3:3: error: `tile.warpgroups` must be array<i64: ...> with one entry (warp groups) per schedule group, 1 to 8 entries
