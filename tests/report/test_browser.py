"""The report in a real headless browser (Debian's ``chromium``): the plots render,
nothing is fetched from the network, and no payload from the run's names runs.

Skipped when no Chromium is installed (``apt-get install -y chromium``). The browser
gets a proxy on a closed loopback port, so even a request it did make would leave
nothing but this machine; its net log says which requests the page itself started.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import traindoc

BROWSER = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
pytestmark = pytest.mark.skipif(BROWSER is None, reason="no Chromium on PATH (apt-get install -y chromium)")

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--proxy-server=127.0.0.1:9", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--disable-extensions", "--window-size=1280,1000", "--virtual-time-budget=15000"]


def load(page: Path, tmp: Path) -> tuple[str, list[str]]:
    """The DOM after the page's scripts ran, and the URLs the page requested."""
    netlog = tmp / "net.json"
    r = subprocess.run([BROWSER, *FLAGS, f"--user-data-dir={tmp / 'profile'}", f"--log-net-log={netlog}",
                        "--dump-dom", page.resolve().as_uri()], capture_output=True, text=True, timeout=180)
    assert r.returncode == 0 and "</html>" in r.stdout, r.stderr[-2000:]
    events = json.loads(netlog.read_text()).get("events", [])
    # Requests the page made carry its origin (file://); the browser's own do not.
    urls = sorted({(e.get("params") or {}).get("url", "") for e in events
                   if "file://" in str((e.get("params") or {}).get("network_isolation_key", ""))})
    return r.stdout, [u for u in urls if u and not u.startswith("file:")]


def rendered(dom: str) -> dict[str, str]:
    """Plot section id -> its rendered DOM, for the sections that hold a figure."""
    out = {}
    for m in re.finditer(r'<div class="plot" id="([^"]+)">(.*?)(?=<div class="plot" id=|<footer)', dom, re.S):
        out[m.group(1)] = m.group(2)
    return out


def test_control_the_net_log_sees_a_page_fetch(tmp_path):
    """The check below can fail: a page that loads a script from a CDN is caught."""
    page = tmp_path / "fetch.html"
    page.write_text('<!DOCTYPE html><html><body><script src="https://cdn.plot.ly/plotly.min.js"></script></body></html>')
    _, urls = load(page, tmp_path)
    assert urls == ["https://cdn.plot.ly/plotly.min.js"]


def test_report_renders_every_plot_offline_in_chromium(mlp_run, tmp_path):
    out = tmp_path / "report.html"
    r = traindoc("report", str(mlp_run), "-o", str(out))
    assert r.returncode == 0, r.stderr
    dom, urls = load(out, tmp_path)
    assert urls == []
    plots = rendered(dom)
    assert set(plots) == {"loss", "lr", "grad-norm", "grad-layers", "update-ratio", "activations", "time", "scaler"}
    for key, html in plots.items():
        if key == "scaler":
            assert "main-svg" not in html and "No GradScaler" in html
            continue
        # plotly.js drew it: its SVG layers exist and hold data.
        assert 'class="main-svg"' in html, key
        assert re.search(r'class="(scatterlayer|heatmaplayer|barlayer)', html), key
    assert re.search(r'class="js-line"[^>]*d="M[\d.]+,[\d.]+L', plots["loss"])  # a drawn line
    assert '<image' in plots["grad-layers"] and 'class="hm"' in plots["grad-layers"]  # the heatmap's bitmap
    assert plots["activations"].count('class="trace scatter') >= 3  # profiles of several sampled steps


def test_hostile_report_runs_no_payload_in_chromium(hostile_run, tmp_path):
    out = tmp_path / "hostile.html"
    r = traindoc("report", str(hostile_run), "-o", str(out))
    assert r.returncode == 0, r.stderr
    dom, urls = load(out, tmp_path)
    assert urls == []
    # The payloads set the title or a data-pwned attribute, or add an <img>, if they ever run.
    title = re.search(r"<title>(.*?)</title>", dom, re.S).group(1)
    assert "PWNED" not in title and title.startswith("traindoc report")
    assert "data-pwned" not in dom and not re.search(r"<img\b", dom)
    plots = rendered(dom)
    for key in ("loss", "grad-layers", "update-ratio", "activations"):
        assert 'class="main-svg"' in plots[key], key
    # The module name is shown as text on the heatmap's axis, not parsed as markup.
    assert "&lt;script&gt;document[\"title\"]" in plots["grad-layers"]
