# Sourced by the prepare scripts of bench/timeline/*/ (build machine): the repository root, a
# fresh .dev folder for a script's bundles, and the generated kernel variants
# (test/variants/make_variants.py) in a temporary folder removed when the script exits.
#   . "$(dirname "$0")/../prepare-lib.sh"
#   fresh_dev NAME       # DEV=$ROOT/.dev/NAME, emptied, with DEV/bundles
#   generate_variants    # VARS: a folder of the variants' IR files
#   bundle IR BUNDLE [stagecraft-compile options...]   # compile-bundle.sh
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
S=$ROOT/assets/schedules
HOLD=$S/attention_cp_dot1_s3_hold.json
BIG=(--size=B=4 --size=H=32 --size=S=8192)
