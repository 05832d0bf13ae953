"""``traindoc demo``: the founding story end to end on bundled synthetic data.

Run the CTR script under the monitor; the loss goes NaN at the step whose batch holds the
one 5 000-long history; the monitor triggers at that step and writes a bundle; the replay
re-executes the step and names the op, the module, the sample and what is extreme about
it; the diagnosis ranks the causes with their fixes.
"""

from __future__ import annotations

import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "ctr_attention.py"


def _size(p: Path) -> str:
    n = sum(f.stat().st_size for f in p.rglob("*") if f.is_file())
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"


def run_demo(out: str | Path | None = None) -> int:
    import json
    import os

    from ..diagnose import diagnose
    from ..forensics.cli import render
    from ..monitor.monitor import Monitor, default_run_dir
    from ..monitor.runner import run_script
    from ..report.summary import print_diagnosis
    from ..report.terminal import console, esc

    c = console()
    out = Path(out) if out else default_run_dir(Path("traindoc-runs"))
    c.print("[bold]traindoc demo[/]: a CTR model with a new user-behaviour-sequence feature goes NaN mid-training.")
    c.print("  data: 8 000 users, histories ~200 items long; user 5171's history is 5 000 long")
    c.print("  model: item embeddings -> attention over the history (softmax written by hand) -> MLP")
    c.print(f"  script: {esc(SCRIPT)}")
    c.print(f"\n[bold]1. run[/]: traindoc run --out {esc(out)} ctr_attention.py\n")
    sys.stdout.flush()
    # the demo's own script writes nothing: it is replayed even where no sandbox exists
    os.environ.setdefault("TRAINDOC_ALLOW_UNSANDBOXED", "1")
    mon = Monitor(out=out, replay=True, command=["traindoc", "run", "--out", str(out), str(SCRIPT)])
    outcome = run_script(str(SCRIPT), [], mon)
    sys.stdout.flush()
    c.print(f"\n[dim]the script exited with code {outcome.exit_code}[/]")
    bundles = mon.capture.bundles
    if bundles:
        b = bundles[0]
        meta = json.loads((b / "meta.json").read_text())
        c.print(f"\n[bold]2. trigger and bundle[/]: {meta['trigger']['kind']} at step {meta['step']} "
                f"(caught at that step, before optimizer.step)")
        c.print(f"  {esc(b)} ({_size(b)}): the batch, its dataset indices, the model and optimizer state "
                f"before the step, RNG states; tensors and JSON only")
        fj = b / "forensics.json"
        res = json.loads(fj.read_text()) if fj.is_file() else None
        where = f" (in the {res['sandbox']} sandbox: it reads everything, writes nothing of yours)" \
            if res and res.get("sandbox") not in (None, "off") else ""
        c.print(f"\n[bold]3. replay[/]{where}: traindoc replay {esc(b)}\n")
        if res is not None:
            sys.stdout.flush()
            render(res)
        elif mon.replay_output:
            c.print(esc(mon.replay_output))
    c.print("\n[bold]4. diagnosis[/]: traindoc diagnose " + esc(out) + "\n")
    print_diagnosis(c, diagnose(out))
    c.print(f"\nNext: traindoc report {esc(out)} -o report.html · traindoc diagnose {esc(out)} --json · "
            f"traindoc explain unstable-op")
    sys.stdout.flush()
    return 0
