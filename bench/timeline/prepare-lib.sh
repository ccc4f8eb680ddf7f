# Sourced by the prepare scripts of bench/timeline/*/ (build machine): the repository root, a
# fresh .dev folder for a script's bundles, and the generated kernel variants
# (test/variants/make_variants.py) in a temporary folder removed when the script exits.
#   . "$(dirname "$0")/../prepare-lib.sh"
#   fresh_dev NAME       # DEV=$ROOT/.dev/NAME, emptied, with DEV/bundles
#   generate_variants    # VARS: a folder of the variants' IR files
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
