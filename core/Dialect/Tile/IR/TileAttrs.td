//===- TileAttrs.td - tile dialect attributes ---------------*- tablegen -*-===//
#ifndef STAGECRAFT_TILE_ATTRS
#define STAGECRAFT_TILE_ATTRS

include "core/Dialect/Tile/IR/TileBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "row reduction kind", [
    I32EnumAttrCase<"Max", 0, "max">,
    I32EnumAttrCase<"Sum", 1, "sum">
  ]> {
  let cppNamespace = "::stagecraft::tile";
  let genSpecializedAttr = 0;
}
def Tile_ReduceKindAttr : EnumAttr<Tile_Dialect, Tile_ReduceKind, "reduce_kind">;

// The schedule of one op of a pipelined loop body. Ops that share a name form
// one schedulable unit (a card on the board) and must agree on the rest.
def Tile_ScheduleAttr : AttrDef<Tile_Dialect, "Schedule"> {
  let mnemonic = "sched";
  let summary = "pipeline schedule of a loop-body op: name, stage, order, warp group";
  let description = [{
    `#tile.sched<"loadK", stage = 0, order = 4, group = 0>`

    - `name`: stable human name; ops with one name move together.
    - `stage`: pipeline stage (>= 0). In steady state, kernel iteration k runs
      this op on source iteration k - stage.
    - `order`: position in the steady-state loop body, loop-wide (like
      Triton's cluster).
    - `group`: warp group (partition) that runs the op.
    - `wait` (dots only, default 0): how many of this dot's wgmma groups may
      stay in flight when the next op runs (MMA pipelining).
  }];
  let parameters = (ins
    StringRefParameter<"unit name">:$name,
    "int64_t":$stage,
    "int64_t":$order,
    "int64_t":$group,
    DefaultValuedParameter<"int64_t", "0">:$wait);
  let assemblyFormat = [{
    `<` $name `,` `stage` `=` $stage `,` `order` `=` $order `,` `group` `=` $group
    (`,` `wait` `=` $wait^)? `>`
  }];
  let genVerifyDecl = 1;
}

#endif // STAGECRAFT_TILE_ATTRS
