#!/usr/bin/env bash
# The app's done-when on a GPU, without the window (the GPU host has neither
# GLFW nor MLIR): the attention example before and after the drag that
# test/app/BoardDragTest.cpp performs (loadK dropped in the column before
# stage 0, so it runs one stage earlier: loadK(i+2)), compiled by the same
# driver the app uses, then run through `stagecraft-run --serve` with the
# JSON-lines requests the app sends.
#   here:     bench/app/drag-loadK.sh compile
#   GPU host: bench/app/drag-loadK.sh run OUT_DIR
set -eu -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=$ROOT/.dev/app-drag
case "$1" in
compile)
  rm -rf "$DIR" && mkdir -p "$DIR"
  cat > "$DIR/after.json" <<'JSON'
{"format": "stagecraft-schedule", "version": 1, "kernel": "attn_fwd_d128", "ops": [
 {"name": "MMA0", "stage": 2, "order": 0, "group": 1}, {"name": "Softmax", "stage": 2, "order": 1, "group": 1},
 {"name": "MUL", "stage": 2, "order": 2, "group": 1}, {"name": "MMA1", "stage": 2, "order": 3, "group": 1},
 {"name": "loadK", "stage": 0, "order": 4, "group": 0}, {"name": "loadV", "stage": 1, "order": 5, "group": 0}]}
JSON
  "$ROOT/build/bin/stagecraft-compile" "$ROOT/assets/attention_fwd_d128.mlir" -o "$DIR/before"
  "$ROOT/build/bin/stagecraft-compile" "$ROOT/assets/attention_fwd_d128.mlir" --schedule "$DIR/after.json" -o "$DIR/after"
  rm -rf "$DIR"/*/ir "$DIR"/*/kernel.ll
  ;;
run)
  OUT=${2:?OUT_DIR}
  mkdir -p "$OUT"
  nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/device.txt"
  printf '%s\n' '{"id": 0, "cmd": "ping"}' \
    "{\"id\": 1, \"bundle\": \"$DIR/before\", \"reps\": 20}" \
    "{\"id\": 2, \"bundle\": \"$DIR/after\", \"reps\": 20}" \
    "{\"id\": 3, \"bundle\": \"$DIR/before\", \"reps\": 20}" \
    "{\"id\": 4, \"bundle\": \"$DIR/after\", \"reps\": 20}" |
    "$ROOT/.dev/prebuilt/stagecraft-run" --serve | tee "$OUT/serve.jsonl"
  ;;
esac
