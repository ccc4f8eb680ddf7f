#!/usr/bin/env python3
# Extract fenced code blocks (lang, start line, text) from docs into inputs/blocks/FILE-LINE.LANG
import re, sys, os
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for path in sys.argv[2:]:
    lines = open(path).read().split('\n')
    i = 0
    while i < len(lines):
        m = re.match(r'^\s*```(\w*)\s*$', lines[i])
        if m:
            lang = m.group(1) or 'txt'
            start = i + 1
            j = i + 1
            while j < len(lines) and not re.match(r'^\s*```\s*$', lines[j]):
                j += 1
            base = os.path.basename(path).replace('.md', '')
            with open(f"{out}/{base}-{start+1}.{lang}", 'w') as f:
                f.write('\n'.join(lines[start:j]) + '\n')
            i = j + 1
        else:
            i += 1
