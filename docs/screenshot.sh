#!/usr/bin/env bash
# Remakes docs/report.png and docs/report-plots.png: the demo run's report in headless
# Chromium (apt-get install -y chromium). Needs Pillow for the crop (pip install pillow).
# The proxy on a closed loopback port keeps the browser off the network.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
traindoc demo --out "$tmp/demo-run" > /dev/null || true   # the demo's script ends with the NaN (exit 1)
traindoc report "$tmp/demo-run" -o "$tmp/report.html"
chromium --headless --no-sandbox --disable-gpu --proxy-server=127.0.0.1:9 --disable-background-networking \
  --hide-scrollbars --window-size=1280,6600 --virtual-time-budget=15000 --user-data-dir="$tmp/profile" \
  --screenshot="$tmp/full.png" "file://$tmp/report.html" 2> /dev/null
python - "$tmp/full.png" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
for name, box in (("report", (0, 0, 1280, 2600)), ("report-plots", (0, 3330, 1280, 5330))):
    im.crop(box).quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(f"docs/{name}.png", optimize=True)
PY
rm -rf "$tmp"
