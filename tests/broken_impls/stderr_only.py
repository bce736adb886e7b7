"""Writes its answers to stderr instead of stdout (after 200 kB of chatter), so stdout
stays silent: every request times out."""

import json
import sys

sys.stderr.write("debug: " + "." * 200_000 + "\n")
for line in sys.stdin:
    request = json.loads(line)
    sys.stderr.write(json.dumps({"id": request.get("id"), "ok": True, "note": "on stderr"}))
    sys.stderr.write("\n")
    sys.stderr.flush()
