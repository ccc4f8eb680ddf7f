#!/usr/bin/env python3
# halfpng.py IN.png OUT.png: half-size copy (2x2 box filter), via the machine's `convert IN ppm:-`.
import subprocess, sys, zlib, struct
ppm = subprocess.run(["convert", sys.argv[1], "ppm:-"], capture_output=True, check=True).stdout
import re
m = re.match(rb"P6\s+(?:#[^\n]*\s+)*(\d+)\s+(\d+)\s+(\d+)\s", ppm); w, h = int(m.group(1)), int(m.group(2)); px = ppm[m.end():]
W, H = w // 2, h // 2
rows = []
for y in range(H):
    r0 = px[(2*y)*w*3:(2*y+1)*w*3]; r1 = px[(2*y+1)*w*3:(2*y+2)*w*3]
    out = bytearray(b"\x00")
    for x in range(W):
        i = 6*x
        for c in range(3):
            out.append((r0[i+c] + r0[i+3+c] + r1[i+c] + r1[i+3+c]) // 4)
    rows.append(bytes(out))
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0)) \
      + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
open(sys.argv[2], "wb").write(png)
