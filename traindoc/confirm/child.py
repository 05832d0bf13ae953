"""The inside of one experiment: ``python -m traindoc.confirm.child SPEC.json``.

Runs in its own process (inside the replay's sandbox when there is one): installs the
experiment's hooks, seeds every generator the same way for every experiment of a
confirmation (the baseline included), and runs the recorded script under a monitor that
writes a run folder into the scratch folder and stops at the step or time budget. Writes
``result.json`` next to it: the notes of the hooks and how the script ended.
"""

from __future__ import annotations

import json
import os
import random
import sys
import warnings
from pathlib import Path


def main(spec_path: str) -> int:
    spec = json.loads(Path(spec_path).read_text())
    out = Path(spec["out"])
    import numpy as np
    import torch

    from ..monitor.monitor import Monitor
    from ..monitor.runner import run_script
    from .hooks import Hooks
    from .registry import load_all

    torch.set_num_threads(max(1, int(spec.get("threads") or 1)))
    os.chdir(spec["cwd"])
    hooks = Hooks()
    if spec.get("experiment"):
        exp = load_all()[spec["experiment"]]
        exp.install(hooks, spec.get("params") or {}, spec.get("ctx") or {})
    hooks.install()
    # the same seed for every re-execution: the script's own seeding (if any) overrides it
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    warnings.filterwarnings("ignore", module="traindoc")
    cmd = ["traindoc", "run", *(["-m"] if spec.get("module") else []), spec["script"], *spec.get("args", [])]
    mon = Monitor(out=out / "run", strict_out=True, bundles=False, replay=False, command=cmd,
                  max_steps=int(spec["steps"]), max_seconds=float(spec["seconds"]), sample_every=int(spec.get("sample_every") or 1_000_000))
    outcome = run_script(spec["script"], list(spec.get("args", [])), mon, module=bool(spec.get("module")))
    hooks.remove()
    result = {"status": outcome.status, "exit_code": outcome.exit_code,
              "error": (outcome.tb or "").strip().splitlines()[-1] if outcome.tb else None,
              "notes": {**dict(hooks.notes), **hooks.values}}
    (out / "result.json").write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
