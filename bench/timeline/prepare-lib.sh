# Sourced by the prepare scripts of bench/timeline/*/ (build machine): the repository root, a
# fresh .dev folder for a script's bundles, and the generated kernel variants
# (test/variants/make_variants.py) in a temporary folder removed when the script exits.
#   . "$(dirname "$0")/../prepare-lib.sh"
#   fresh_dev NAME       # DEV=$ROOT/.dev/NAME, emptied, with DEV/bundles
#   generate_variants    # VARS: a folder of the variants' IR files
#   bundle IR BUNDLE [stagecraft-compile options...]   # compile-bundle.sh
#   named_bundle NAME IR [options...]  # DEV/bundles/NAME--default, IR copied as DEV/ir/NAME.mlir
#                                      # (where predict_bundles.py finds it)
#   tagged_bundles TAG IR...     # DEV/bundles/STEM--TAG of each (repository-relative) IR, copied
#                                # as DEV/ir/STEM.mlir: two compilers' bundles side by side
#   raster_bundle ASSET RASTER   # DEV/bundles/raster-ASSET--RASTER (bench/timeline/tpc-raster)
#   sched_bundle ASSET NAME      # DEV/bundles/sched-ASSET--NAME (bench/timeline/schedules)
#   placed_ir SPEC               # DEV/ir/NAME.mlir of a PLACEMENTS spec; prints NAME
#   with_promotion SRC DST P    # a copy of bundle SRC with every descriptor at L2 promotion P
#   sweep_schedules SPEC...     # bench/gemm/sweep.py schedules into DEV/schedules (below)
#   sweep_bundles OUTDIR MxNxK  # each of them compiled at that size
# and S (the assets' schedules), HOLD (Triton's second form with MMA1 held), BIG (the generated
# attention variants' long size at head dim 64: B4 H32 S8192).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fresh_dev() {
  DEV=$ROOT/.dev/$1
  rm -rf "$DEV" && mkdir -p "$DEV/bundles"
}
generate_variants() {
  VARS=$(mktemp -d)
  trap 'rm -rf "$VARS"' EXIT
  python3 "$ROOT/test/variants/make_variants.py" "$VARS" --set all > /dev/null
}
bundle() { bash "$ROOT/bench/timeline/compile-bundle.sh" "$@"; }
named_bundle() {
  local name=$1 ir=$2
  shift 2
  mkdir -p "$DEV/ir"
  cp "$ir" "$DEV/ir/$name.mlir"
  bundle "$ir" "$DEV/bundles/$name--default" "$@"
}
S=$ROOT/assets/schedules
HOLD=$S/attention_cp_dot1_s3_hold.json
BIG=(--size=B=4 --size=H=32 --size=S=8192)
tagged_bundles() {
  local tag=$1 k name
  shift
  mkdir -p "$DEV/ir"
  for k in "$@"; do
    name=$(basename "$k" .mlir)
    cp "$ROOT/$k" "$DEV/ir/$name.mlir"
    bundle "$ROOT/$k" "$DEV/bundles/$name--$tag" || echo "refused: $name"
  done
}
raster_bundle() {
  mkdir -p "$DEV/ir"
  bash "$ROOT/bench/timeline/tpc-raster/raster-ir.sh" "$1" "$2" "$DEV/ir/$1-$2.mlir"
  bundle "$DEV/ir/$1-$2.mlir" "$DEV/bundles/raster-$1--$2"
}
sched_bundle() {
  bundle "$ROOT/assets/$1.mlir" "$DEV/bundles/sched-$1--$2" \
    --schedule "$ROOT/bench/timeline/schedules/$1--$2.json"
}
# The persistent GEMMs with their program id permuted (bench/timeline/cta-placement):
# ASSET:ORDER:PERM, every round the same tiles, only which CTAs share a panel changing.
PLACEMENTS=(persistent_gemm:row-major:id persistent_gemm:row-major:scatter
            persistent_gemm:grouped:4:id persistent_gemm:grouped:4:interleave
            persistent_gemm:grouped:4:scatter
            persistent_gemm_pingpong:row-major:id persistent_gemm_pingpong:row-major:scatter
            persistent_gemm_pingpong:grouped:8:id persistent_gemm_pingpong:grouped:8:scatter)
placed_ir() {
  local asset=${1%%:*} rest=${1#*:}
  local perm=${rest##*:} order=${rest%:*}
  local name=place-$asset--${order/:/}--$perm
  mkdir -p "$DEV/ir"
  bash "$ROOT/bench/timeline/cta-placement/permuted-ir.sh" "$asset" "$perm" "$order" "$DEV/ir/$name.mlir" >&2
  echo "$name"
}
# with_promotion SRC DST P: a copy of bundle SRC whose every TMA descriptor has L2 promotion P
# (none, 64B, 128B, 256B): the same cubin, another tensor map (bench/timeline/ncu/promotion-*).
with_promotion() {
  rm -rf "$2" && cp -r "$1" "$2"
  python3 - "$2/manifest.json" "$3" <<'PY'
import json, sys
path, promotion = sys.argv[1], sys.argv[2]
m = json.load(open(path))
for p in m["params"]:
    if p.get("kind") == "tensormap":
        p["l2_promotion"] = promotion
json.dump(m, open(path, "w"), indent=1)
PY
}
# sweep_schedules SPEC...: bench/gemm/sweep.py's schedules into DEV/schedules/ASSET--NAME.json,
# SPEC ASSET:AHEAD:WAIT for a warp-specialized one (NAME ws-aheadA-waitW), or ASSET for every
# variant of the asset but the unpipelined one.
sweep_schedules() {
  mkdir -p "$DEV/schedules"
  python3 - "$ROOT" "$DEV/schedules" "$@" <<'PY'
import importlib.util, json, os, sys
root, out, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
spec = importlib.util.spec_from_file_location("gemm_sweep", os.path.join(root, "bench", "gemm", "sweep.py"))
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
for s in specs:
    if ":" in s:
        asset, a, w = s.split(":")
        named = [(f"ws-ahead{a}-wait{w}", m.schedule(asset, int(a), int(w), True))]
    else:
        asset, named = s, [(n, x) for n, x in m.variants(s) if n != "unpipelined"]
    for name, sched in named:
        with open(os.path.join(out, f"{asset}--{name}.json"), "w") as f:
            json.dump(sched, f)
PY
}
# sweep_bundles OUTDIR MxNxK: every schedule of DEV/schedules (sweep_schedules) compiled at that
# size into OUTDIR/sweep-ASSET--NAME--MxNxK; a schedule the legality check refuses is named.
sweep_bundles() {
  local out=$1 size=$2 M N K s name
  IFS=x read -r M N K <<< "$size"
  for s in "$DEV"/schedules/*.json; do
    name=$(basename "$s" .json)
    bundle "$ROOT/assets/${name%%--*}.mlir" "$out/sweep-$name--$size" --schedule "$s" \
      --size M="$M" --size N="$N" --size K="$K" 2>/dev/null || echo "refused: $name at $size"
  done
}
