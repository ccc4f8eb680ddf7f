#!/usr/bin/env python3
# Is every non-"..." line of an excerpt (comments stripped, whitespace-normalised) present in FILE?
import sys, re
ex, f = sys.argv[1], sys.argv[2]
norm = lambda s: ' '.join(re.sub(r'//.*', '', s).split())
have = set(norm(l) for l in open(f))
miss = [l.rstrip() for l in open(ex) if norm(l) and norm(l) != '...' and norm(l) not in have]
print(f"{ex} in {f}: {'all lines present' if not miss else 'MISSING:'}")
for m in miss: print('   ', m)
