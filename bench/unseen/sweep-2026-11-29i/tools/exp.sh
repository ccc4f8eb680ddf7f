#!/bin/bash
# exp.sh NAME SRC.mlir [compile args...]: export SRC into $EXPORTS/NAME (default /tmp/sweep15/exports); log in logs/export-NAME.log
H=$(cd "$(dirname "$0")/.." && pwd)
E=${EXPORTS:-/tmp/sweep15/exports}; mkdir -p "$E"
N=$1; S=$2; shift 2
rm -rf "$E/$N"
timeout 180 ${STAGECRAFT_BIN:-/tmp/sweep15/bin}/stagecraft-compile "$S" "$@" -q --export "$E/$N" > $H/logs/export-$N.log 2>&1; rc=$?
echo "[$N] export rc=$rc: $(grep -E 'error|warning|exported' $H/logs/export-$N.log | head -3 | cut -c1-300 | tr '\n' ' ')"
exit $rc
