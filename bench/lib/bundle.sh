# Sourced by the bench prepare scripts (bash): compile_bundle NAME MLIR [compile args...]
# compiles MLIR with $COMPILE into $WORK/NAME and copies the files the runner reads (manifest,
# cubin, PTX of the kernel and its reference, schedule) into $DEV/bundles/NAME, replacing it.
compile_bundle() {
  local name=$1 mlir=$2; shift 2
  "$COMPILE" "$mlir" "$@" -o "$WORK/$name" -q
  rm -rf "$DEV/bundles/$name" && mkdir -p "$DEV/bundles/$name"
  for f in manifest.json kernel.cubin kernel.ptx reference.ptx schedule.json; do
    [ -f "$WORK/$name/$f" ] && cp "$WORK/$name/$f" "$DEV/bundles/$name/"
  done
  return 0
}
