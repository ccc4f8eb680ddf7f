//===- Cluster.h - thread-block clusters of a tile kernel ----------*- C++ -*-===//
//
// A kernel with `tile.cluster = C` launches its CTAs in clusters of C along
// grid dimension 0 (CTAs c*C .. c*C + C-1). What the compiler needs of that:
// the cluster ops' values (in terms of program ids, for the evaluators and
// both lowerings), and which index values are the same in every CTA of a
// cluster, so that a load whose box is one of those is loaded once for the
// cluster and multicast (docs/ir-reference.md, "Clusters"). Which loads are
// shared, and when sharing is refused, is a schedule rule
// (Legality.h: clusterSharing), from the facts buildLoopGraph reads here.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_DIALECT_TILE_IR_CLUSTER_H
#define STAGECRAFT_CORE_DIALECT_TILE_IR_CLUSTER_H

#include "core/Dialect/Tile/IR/TileDialect.h"

#include <optional>

namespace stagecraft::tile {

/// CTAs per cluster (`tile.cluster`; 1 without it) of the kernel holding `op`.
int64_t clusterSize(mlir::Operation *op);

/// The value of a cluster op (`tile.cluster_rank`, `tile.cluster_id`,
/// `tile.num_clusters`, `tile.cluster_size`) for program id `pid0` in a grid of `grid0` along
/// dimension 0; nullopt for any other op.
std::optional<int64_t> clusterOpValue(mlir::Operation *op, int64_t pid0, int64_t grid0);

/// Whether the index value `v` may differ between the CTAs of one cluster
/// (of any size above 1): it depends on `tile.cluster_rank` or
/// `tile.program_id 0`, on a loop's induction variable whose bounds do, or
/// on anything this analysis does not follow (a loop-carried value, an
/// element of a tensor).
bool variesInCluster(mlir::Value v);


} // namespace stagecraft::tile

#endif // STAGECRAFT_CORE_DIALECT_TILE_IR_CLUSTER_H
