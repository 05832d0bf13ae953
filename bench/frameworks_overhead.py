"""Per-step cost of the monitor under each way of training (the rows of bench/memory.py:
a DataLoader loop, a hand-written update, ``get_batch()``, a NaN guard, gradient
accumulation, LBFGS, two optimizers, Lightning's automatic optimization, the Hugging Face
Trainer).

Each row runs in its own process, which alternates blocks of training, plain and
monitored (``traindoc.watch()``, the hooks ``traindoc run`` installs; the Lightning and HF
rows add the framework's ``TraindocCallback`` instead, as a user of that framework does),
A B A B ...; every block is a fresh run of the row's script (a new model,
optimizer, Trainer) of ``--warmup`` + ``--steps`` steps, timed between the script's marks
after each step. Start-up, the warm-up steps, the monitor's sampled steps and the
end-of-run work are left out: what remains is the steady per-step cost. The table shows
the median step of each mode, and the medians over rounds of the paired difference
(added ms/step) and ratio.

``--baseline DIR`` adds a third mode in the same blocks, monitored by the traindoc of
another checkout (``git worktree add DIR <commit>``): before and after a change, paired
under the same load (the two packages take turns in ``sys.modules``).

``--net toy`` is bench/memory.py's 2-layer MLP (32-64-10, a step of about a millisecond
where the fixed cost shows); ``--net transformer`` swaps it for a 2-layer transformer
encoder (d=128, 8 tokens, batch 32: a few milliseconds per step) in the rows that use
``net()`` (the get_batch and GAN rows keep their own models).

    OMP_WAIT_POLICY=PASSIVE python bench/frameworks_overhead.py [--rounds 7] [--steps 200] [--net toy]
        [--baseline DIR]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from memory import ROWS  # noqa: E402  (the rows: one script body per way of training)

ROOT = Path(__file__).resolve().parent.parent

# where the Lightning and HF rows take their callbacks (CALLBACKS: [] plain, the framework's
# TraindocCallback monitored)
_CALLBACK_AT = {"Lightning (automatic optimization)": ("devices=1)", "devices=1, callbacks=CALLBACKS)"),
                "Hugging Face Trainer": ("callbacks=[Mark()])", "callbacks=[Mark()] + CALLBACKS)")}
_CALLBACK_OF = {"Lightning (automatic optimization)": "traindoc.integrations.lightning",
                "Hugging Face Trainer": "traindoc.integrations.hf"}

# the head of each block's script: the model, and mark()/report() that time the steps
_HEAD = '''
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(0)
def _toy(): return nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
def _transformer():
    layer = nn.TransformerEncoderLayer(128, 4, 512, dropout=0.0, batch_first=True, norm_first=True)
    return nn.Sequential(nn.Unflatten(1, (8, 4)), nn.Linear(4, 128), nn.TransformerEncoder(layer, 2),
                         nn.Flatten(), nn.Linear(8 * 128, 10))
net = _transformer if NET == "transformer" else _toy
X, Y = torch.randn(4096, 32), torch.randint(0, 10, (4096,))
def mark(step): TICK(step)
def report(): pass
'''


def _own() -> dict:
    """The traindoc modules in ``sys.modules``, taken out of it."""
    return {k: sys.modules.pop(k) for k in list(sys.modules) if k == "traindoc" or k.startswith("traindoc.")}


def _packages(baseline: str, extra: list[str]) -> dict[str, dict]:
    """The traindoc modules of each tree, loaded one after the other (``_use`` puts a mode's
    own back in ``sys.modules``: the package imports lazily, by name)."""
    out = {}
    for mode, root in (("monitored", None), ("baseline", baseline)):
        if mode == "baseline" and not baseline:
            break
        if root:
            sys.path.insert(0, root)
        for name in ["traindoc", "traindoc.monitor.capture", *extra]:
            importlib.import_module(name)
        if root:
            sys.path.remove(root)
        out[mode] = _own()
    return out


def _use(packages: dict[str, dict], cur: str | None, mode: str) -> None:
    if cur is not None:
        packages[cur] = _own()  # with what it imported lazily since
    sys.modules.update(packages[mode])


def _child(row: str, rounds: int, steps: int, warm: int, net: str, baseline: str = "") -> None:
    """In the row's process: the interleaved blocks; prints one JSON line of step times."""
    import logging
    import warnings

    import torch

    packages = _packages(baseline, [_CALLBACK_OF[row]] if row in _CALLBACK_OF else [])
    cur = None

    torch.set_num_threads(1)
    warnings.filterwarnings("ignore")
    for name in ("lightning", "lightning.pytorch", "lightning.fabric", "transformers"):
        logging.getLogger(name).setLevel(logging.ERROR)
    body = ROWS[row][1]
    if row in _CALLBACK_AT:
        at, to = _CALLBACK_AT[row]
        assert at in body, f"bench/memory.py's {row} row changed: put CALLBACKS back in"
        body = body.replace(at, to)
    out: dict[str, list[float]] = {m: [] for m in ("plain", *packages)}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            for mode in out:
                active = lambda: None  # noqa: E731
                if mode != "plain":
                    _use(packages, cur, mode)
                    cur = mode
                    traindoc = sys.modules["traindoc"]
                    active = sys.modules["traindoc.monitor.monitor"].active
                times: list[float] = []
                last = [time.perf_counter()]

                def tick(step: int) -> None:
                    now = time.perf_counter()
                    mon = active()
                    # the step that just ended: a sampled one pays the sampled measurements
                    sampled = mon is not None and mon.sampler._last_sampled == mon.step - 1
                    if step > warm and not sampled:
                        times.append(now - last[0])
                    last[0] = time.perf_counter()

                code = _HEAD + body
                g = {"__name__": "__bench__", "STEPS": warm + steps, "TICK": tick, "NET": net, "CALLBACKS": []}
                if mode == "plain":
                    exec(compile(code, f"<{row}>", "exec"), g)
                elif row in _CALLBACK_OF:
                    cb = importlib.import_module(_CALLBACK_OF[row]).TraindocCallback
                    g["CALLBACKS"] = [cb(out=f"{tmp}/{mode}{r}", print_diagnosis=False)]
                    exec(compile(code, f"<{row}>", "exec"), g)
                else:
                    with traindoc.watch(out=f"{tmp}/{mode}{r}"):
                        exec(compile(code, f"<{row}>", "exec"), g)
                out[mode].append(statistics.median(times))
    print("BENCH " + json.dumps(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--steps", type=int, default=200, help="timed steps per block")
    ap.add_argument("--warmup", type=int, default=30, help="untimed steps at the start of each block")
    ap.add_argument("--net", choices=("toy", "transformer"), default="toy")
    ap.add_argument("--only", default="", help="comma-separated substrings of row names")
    ap.add_argument("--baseline", default="", help="another checkout's root: its traindoc, monitored, as a third mode")
    ap.add_argument("--child", default="", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        _child(a.child, a.rounds, a.steps, a.warmup, a.net, a.baseline)
        return
    rows = [n for n in ROWS if not a.only or any(s.lower() in n.lower() for s in a.only.split(","))]
    import torch

    print(f"torch {torch.__version__}, 1 thread, net={a.net}; {a.rounds} rounds (plain, monitored) x "
          f"{a.steps} timed steps after {a.warmup}; unsampled steps; medians over rounds of paired values")
    base = " (baseline / this tree)" if a.baseline else ""
    print(f"| row | plain ms/step | monitored ms/step{base} | added ms/step{base} | ratio{base} |")
    print("|---|---:|---:|---:|---:|")
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE",
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    for name in rows:
        need = ROWS[name][0]
        if need and importlib.util.find_spec(need) is None:
            print(f"| {name} | skipped: {need} is not installed | | | |")
            continue
        cmd = [sys.executable, __file__, "--child", name, "--rounds", str(a.rounds), "--steps", str(a.steps),
               "--warmup", str(a.warmup), "--net", a.net, "--baseline", a.baseline]
        p = subprocess.run(cmd, env=env, capture_output=True, text=True)
        line = next((ln for ln in p.stdout.splitlines() if ln.startswith("BENCH ")), None)
        if p.returncode != 0 or line is None:
            raise SystemExit(f"{name} failed (exit {p.returncode}):\n{p.stderr[-3000:]}")
        t = json.loads(line[6:])
        pl = t["plain"]
        cols: list[list[str]] = [[], [], []]
        for mode in ("baseline", "monitored") if a.baseline else ("monitored",):
            mo = t[mode]
            cols[0].append(f"{statistics.median(mo) * 1e3:.2f}")
            cols[1].append(f"{statistics.median(m - q for m, q in zip(mo, pl)) * 1e3:+.2f}")
            cols[2].append(f"{statistics.median(m / q for m, q in zip(mo, pl)):.2f}x")
        print(f"| {name} | {statistics.median(pl) * 1e3:.2f} | " + " | ".join(" / ".join(c) for c in cols) + " |",
              flush=True)


if __name__ == "__main__":
    main()
