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
