"""``traindoc demo``: the founding story end to end on bundled synthetic data."""

from __future__ import annotations

import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "ctr_attention.py"


def run_demo(out: str | Path | None = None) -> int:
    from ..diagnose import diagnose
    from ..monitor.monitor import Monitor, default_run_dir
    from ..monitor.runner import run_script
    from ..report.summary import print_diagnosis
    from ..report.terminal import console

    c = console()
    out = Path(out) if out else default_run_dir(Path("traindoc-runs"))
    c.print("[bold]traindoc demo[/]: a CTR model with a user-behaviour-sequence feature goes NaN mid-training.")
    c.print(f"  script: {SCRIPT}")
    c.print(f"  running: traindoc run --out {out} ctr_attention.py\n")
    mon = Monitor(out=out, command=["traindoc", "run", "--out", str(out), str(SCRIPT)])
    outcome = run_script(str(SCRIPT), [], mon)
    c.print(f"\n[dim]the script exited with code {outcome.exit_code}[/]\n")
    print_diagnosis(c, diagnose(out))
    c.print(f"\nNext: traindoc diagnose {out} --json · traindoc explain loss-nonfinite")
    sys.stdout.flush()
    return 0
