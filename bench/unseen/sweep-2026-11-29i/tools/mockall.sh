#!/bin/bash
# run() of every package against the mock at the compiled sizes, compared with the manifest
H=$(cd "$(dirname "$0")/.." && pwd); E=${EXPORTS:-/tmp/sweep15/exports}
for p in $E/*/; do p=${p%/}; n=$(basename $p)
  ps=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(",".join("128" if p["kind"]=="tensormap" else ("8" if p["kind"]=="pointer" or p.get("dtype")=="i64" else "4") for p in m["params"]))' $p/manifest.json)
  rm -f /tmp/sweep15/mock-$n.log
  out=$(cd /tmp && LD_LIBRARY_PATH=/tmp/sweep15/mock MOCK_CUDA_PARAMS=$ps MOCK_CUDA_LOG=/tmp/sweep15/mock-$n.log PYTHONDONTWRITEBYTECODE=1 timeout 120 python3 $H/tools/mockrun.py $p 2>&1 | tail -1)
  echo "$n: $out"
done
