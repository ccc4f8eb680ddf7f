#!/usr/bin/env bash
# A bounded libFuzzer run over a committed corpus, for ctest (label fuzz).
#   run-bounded.sh FUZZER CORPUS_DIR SECONDS [libFuzzer flags...]
# Replays every input of CORPUS_DIR, then mutates for about SECONDS more
# (replaying counts towards the limit). New inputs and crash reproducers go
# to ./<fuzzer>/ under the working directory (the build), never into the
# committed corpus. Exits non-zero on any crash, sanitizer report, leak,
# timeout or broken contract, naming the reproducer.
set -euo pipefail
fuzzer=$1 corpus=$2 seconds=$3
shift 3
work=$PWD/$(basename "$fuzzer")
rm -rf "$work"
mkdir -p "$work/new" "$work/crashes"
# A fixed seed: the same inputs are tried on every run of one build (how many
# depends on the machine's speed).
exec "$fuzzer" -seed=1 -max_total_time="$seconds" -print_final_stats=1 \
  -artifact_prefix="$work/crashes/" "$@" "$work/new" "$corpus"
