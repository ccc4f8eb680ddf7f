#!/bin/bash
# exp.sh NAME SRC.mlir [compile args...] [-- size args for the mock check]: export into exports/NAME and check it.
H=$(cd "$(dirname "$0")/.." && pwd); cd $H
N=$1; S=$2; shift 2
args=(); chk=()
while [ $# -gt 0 ]; do [ "$1" = "--" ] && { shift; chk=("$@"); break; }; args+=("$1"); shift; done
rm -rf exports/$N
timeout 180 ${STAGECRAFT_BIN:-/tmp/sweep9/bin}/stagecraft-compile "$S" "${args[@]}" --export exports/$N > logs/export-$N.log 2>&1; rc=$?
echo "[$N] export rc=$rc: $(grep -E 'error|exported' logs/export-$N.log | head -3 | tr '\n' ' ')"
[ $rc -eq 0 ] && [ -z "${EXPORT_ONLY:-}" ] && tools/checkpkg.sh exports/$N "${chk[@]}" 2>&1 | tee logs/check-$N.log
