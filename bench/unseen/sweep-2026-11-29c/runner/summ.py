import sys, json
raw = sys.stdin.read()
lines = [l for l in raw.splitlines() if l.strip()]
try:
    r = json.loads(lines[-1])
    s = "%d line(s) status=%s error=%s warnings=%s" % (len(lines), r["status"], str(r["error"])[:260], r["warnings"])
    print(s[:420])
except Exception as e:
    print("NOT JSON:", repr(raw[:200]))
