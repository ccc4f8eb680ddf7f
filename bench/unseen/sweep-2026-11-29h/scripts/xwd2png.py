#!/usr/bin/env python3
# xwd2png.py IN.xwd OUT.png : the Xvfb -fbdir screen (32 bpp ZPixmap) to PNG
import sys, struct, os
sys.path.insert(0, os.path.dirname(__file__))
from crop_lib import writepng
d = open(sys.argv[1], 'rb').read()
hdr = struct.unpack('>25I', d[:100])
hsize, _, fmt, depth, w, h, _, byte_order, _, _, _, bpp, bpl = hdr[:13]
ncolors = hdr[19]
off = hsize + ncolors * 12
rows = []
for y in range(h):
    line = d[off + y*bpl: off + y*bpl + w*4]
    if byte_order == 0:  # LSBFirst: B G R X
        r = bytes(b for i in range(0, len(line), 4) for b in (line[i+2], line[i+1], line[i]))
    else:
        r = bytes(b for i in range(0, len(line), 4) for b in (line[i+1], line[i+2], line[i+3]))
    rows.append(r)
writepng(sys.argv[2], w, h, rows)
