"""crop.py IN.png OUT.png X Y W H [SCALE]: crop (via the convert stand-in's PPM) and write PNG."""
import sys, subprocess, zlib, struct
src, dst, x, y, w, h = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:7])
scale = int(sys.argv[7]) if len(sys.argv) > 7 else 1
ppm = subprocess.run(["convert", src, "ppm:-"], capture_output=True).stdout
# parse header
parts = []; i = 0
while len(parts) < 4:
    while ppm[i:i+1].isspace(): i += 1
    if ppm[i:i+1] == b"#":
        while ppm[i:i+1] != b"\n": i += 1
        continue
    j = i
    while not ppm[j:j+1].isspace(): j += 1
    parts.append(ppm[i:j]); i = j
i += 1
W, H = int(parts[1]), int(parts[2]); data = ppm[i:]
rows = []
for r in range(y, min(y + h, H)):
    row = data[(r * W + x) * 3:(r * W + min(x + w, W)) * 3]
    if scale > 1:
        row = b"".join(row[k:k+3] * scale for k in range(0, len(row), 3))
    for _ in range(scale): rows.append(b"\x00" + row)
ow = (min(x + w, W) - x) * scale; oh = len(rows)
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", ow, oh, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b"")
open(dst, "wb").write(png)
