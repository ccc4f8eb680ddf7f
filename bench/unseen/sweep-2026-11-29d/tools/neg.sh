#!/bin/bash
# Each inputs/neg/*.mlir has "// EXPECT: MSG": stagecraft-opt must fail and print MSG.
B=${B:-/tmp/sweep10/bin}
for f in "$@"; do
  exp=$(sed -n 's|^// EXPECT: ||p' $f | head -1)
  out=$(timeout 60 $B/stagecraft-opt $f -o /dev/null 2>&1); rc=$?
  if [ $rc -ne 0 ] && grep -qF -- "$exp" <<<"$out"; then echo "OK   $(basename $f)"
  else echo "DIFF $(basename $f) rc=$rc"; echo "   doc: $exp"; echo "   got: $(grep -m1 error <<<"$out" | cut -c1-400)"; fi
done
