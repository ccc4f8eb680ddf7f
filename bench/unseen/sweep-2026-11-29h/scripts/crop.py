#!/usr/bin/env python3
# crop.py IN.png OUT.png x,y,w,h [x,y,w,h ...]  : crops side by side (uses `convert IN ppm:-`)
import sys, subprocess, zlib, struct
def readppm(path):
    d = subprocess.run(["convert", path, "ppm:-"], capture_output=True, check=True).stdout
    parts = []; i = 0
    while len(parts) < 4:
        while d[i:i+1].isspace(): i += 1
        if d[i:i+1] == b'#':
            while d[i:i+1] != b'\n': i += 1
            continue
        j = i
        while not d[j:j+1].isspace(): j += 1
        parts.append(d[i:j]); i = j
    i += 1
    w, h = int(parts[1]), int(parts[2])
    return w, h, d[i:i+w*h*3]
def writepng(path, w, h, rows):
    raw = b''.join(b'\x00' + r for r in rows)
    def chunk(t, b): return struct.pack('>I', len(b)) + t + b + struct.pack('>I', zlib.crc32(t+b) & 0xffffffff)
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))
w, h, px = readppm(sys.argv[1])
boxes = [tuple(map(int, a.split(','))) for a in sys.argv[3:]] or [(0,0,w,h)]
H = max(b[3] for b in boxes)
rows = []
for y in range(H):
    r = b''
    for (x0, y0, bw, bh) in boxes:
        if y < bh and y0+y < h:
            r += px[((y0+y)*w + x0)*3:((y0+y)*w + x0 + bw)*3]
        else:
            r += b'\x00' * (bw*3)
    rows.append(r)
writepng(sys.argv[2], sum(b[2] for b in boxes), H, rows)
