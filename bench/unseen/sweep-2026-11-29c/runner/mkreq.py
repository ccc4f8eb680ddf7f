import json, base64, os
R = os.path.abspath("base")
def b64(p): return base64.b64encode(open(p, "rb").read()).decode()
reqs = [
 '{"id": 1, "cmd": "check", "bundle": "%s"}' % R,
 '{"id": 2, "cmd": "check", "bundle": "%s"}' % os.path.abspath("bad/unknown_field"),
 '{"id": 3, "cmd": "check", "bundle": "%s"}' % os.path.abspath("bad/output_with_init"),
 '{"id": 4, "cmd": "run", "bundle": "%s"}' % R,
 '{"id": 5, "cmd": "ping"}',
 '{"id": 6 "cmd": "ping"}',
 '{"id": 7, "cmd": "dance"}',
 '{"id": [1,2,{"x":3}], "cmd": "ping"}',
 '{"id": 1e999, "cmd": "ping"}',
 '{"id": 9, "cmd": "run"}',
 '{"id": 10, "cmd": "run", "bundle": 42}',
 '{"id": 11, "cmd": "run", "bundle": "/nonexistent/dir"}',
 '{"id": 12, "cmd": "run", "bundle": ""}',
 '{"id": 13, "cmd": "run", "bundle": "%s", "reps": 0}' % R,
 '{"id": 14, "cmd": "run", "bundle": "%s", "reps": -5}' % R,
 '{"id": 15, "cmd": "run", "bundle": "%s", "reps": 1.5}' % R,
 '{"id": 16, "cmd": "run", "bundle": "%s", "reps": "5"}' % R,
 '{"id": 17, "cmd": "run", "bundle": "%s", "reps": 1e30}' % R,
 '{"id": 18, "cmd": "run", "bundle": "%s", "watchdog_s": 0}' % R,
 '{"id": 19, "cmd": "run", "bundle": "%s", "watchdog_s": -1}' % R,
 '{"id": 20, "cmd": "run", "bundle": "%s", "watchdog_s": 1e308}' % R,
 '{"id": 21, "cmd": "run", "bundle": "%s", "verify": "yes"}' % R,
 '{"id": 22, "cmd": "run", "bundle": "%s", "trace": 1}' % R,
 '{"id": 23, "cmd": "run", "bundle": "%s", "bogus": 1}' % R,
 '{"id": 24, "cmd": "ping", "probe": {"path": "/etc/hostname", "token": ""}}',
 '{"id": 25, "cmd": "ping", "probe": {"path": "/dev/zero", "token": "abc"}}',
 '{"id": 26, "cmd": "ping", "probe": {"path": "/proc/self/fd/0", "token": "abc"}}',
 '{"id": 27, "cmd": "run", "bundle": "%s", "probe": {"path": "/etc/hostname", "token": "x"}}' % R,
 '{"id": 28, "cmd": "check", "upload": {"manifest.json": "%s", "kernel.cubin": "%s", "reference.ptx": "%s"}}' % (b64("base/manifest.json"), b64("base/kernel.cubin"), b64("base/reference.ptx")),
 '{"id": 29, "cmd": "check", "upload": {"manifest.json": "%s", "../evil": "AAAA"}}' % b64("base/manifest.json"),
 '{"id": 30, "cmd": "check", "upload": {"manifest.json": "!!!notbase64", "kernel.ptx": "AAAA"}}',
 '{"id": 31, "cmd": "check", "upload": {"kernel.ptx": "AAAA"}}',
 '{"id": 32, "cmd": "check", "bundle": "%s", "upload": {"manifest.json": "%s", "kernel.ptx": "AAAA"}}' % (R, b64("base/manifest.json")),
 '{"id": 33, "cmd": "check", "upload": {"manifest.json": "%s", "kernel.cubin": "AAA"}}' % b64("base/manifest.json"),
 '{"id": 34, "cmd": "check", "upload": []}',
 '{"id": 35, "cmd": "check", "upload": {"manifest.json": "%s", "kernel.ptx": "%s", "kernel.ptx": "%s"}}' % (b64("base/manifest.json"), b64("base/kernel.ptx"), b64("base/kernel.ptx")),
 '{"id": 36, "cmd": "check", "upload": {"manifest.json": "%s", "kernel.cubin": "%s", "reference.ptx": "%s", "schedule.json": "e30="}}' % (b64("base/manifest.json"), b64("base/kernel.cubin"), b64("base/reference.ptx")),
 '{"id": 37, "cmd": "check", "bundle": "%s"}' % os.path.abspath("bad/manifest_fifo"),
 '{"id": 38, "cmd": "check", "bundle": "%s"}' % os.path.abspath("bad/cubin_garbage"),
 '   ',
 '{"id": 39, "cmd": "ping"}\r',
 '{"id": 40, "cmd": "ping"} {"id": 41}',
 '{"id": "\\ud800", "cmd": "ping"}',
 '{"id": "\u00e9\u65e5", "cmd": "ping"}',
 '{"id": 42, "cmd": "ping", "cmd": "check"}',
 '{"id": 43, "cmd": null}',
 'null', '[]', '"ping"', '42', '{}',
 '{"id": 44, "cmd": "ping"',
 '{"id": 45, "cmd": "check", "bundle": "%s"}' % ("/tmp/" + "x" * 5000),
 '{"id": 46, "cmd": "ping", "probe": {"path": "%s", "token": "t"}}' % ("/" + "y" * 5000),
 '{"id": 47, "cmd": "check", "bundle": "%s"}' % os.path.abspath("bad/manifest_deep_nesting"),
]
with open("requests.jsonl", "wb") as f:
    for r in reqs: f.write(r.encode() + b"\n")
    f.write(b'{"id": 48, "cmd": "ping", "pad": "' + b"z" * (2 * 1024 * 1024) + b'"}\n')
    f.write(b'{"id": 49, "cmd": "ping", "x": "\xff\xfe invalid utf8"}\n')
    f.write(b'{"id": 50, "cmd": "ping", "x": "nul\x00byte"}\n')
    f.write(b'{"id": 51, "cmd": "ping"}\n')
    f.write(b'{"id": 52, "cmd": "ping"}')  # no newline at EOF
print(len(reqs) + 5, "requests")
