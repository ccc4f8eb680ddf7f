#!/usr/bin/env python3
# montage.py OUT.png IMG... : sheet of up to 4 screenshots, 2x2, at half size (nearest), to spot blank or garbled ones
import sys, os
sys.argv_saved = sys.argv; sys.path.insert(0, os.path.dirname(__file__))
from crop_lib import readppm, writepng
imgs = [readppm(p) for p in sys.argv[2:6]]
W, H = 860, 520
rows = []
for r in range(2):
    for y in range(H):
        line = b''
        for c in range(2):
            i = r*2 + c
            if i < len(imgs):
                w, h, px = imgs[i]; sy = min(h-1, y*2)
                base = sy*w*3
                line += b''.join(px[base+x*6: base+x*6+3] for x in range(W))
            else:
                line += b'\x00'*(W*3)
        rows.append(line)
writepng(sys.argv[1], 2*W, 2*H, rows)
