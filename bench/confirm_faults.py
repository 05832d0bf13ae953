"""traindoc confirm on bench/faults/ scripts: the top cause before and after the
experiments, what they confirmed and refuted (the table in docs/confirm.md).

    OMP_WAIT_POLICY=PASSIVE TRAINDOC_ALLOW_UNSANDBOXED=1 python bench/confirm_faults.py [NAMES,...] [--out DIR]

Each script is recorded with ``traindoc run`` (once; kept in --out), then ``traindoc confirm
--seconds 60`` re-executes it; the table is computed from the stored verdicts with the
current ranking code. These scripts are the ones the rules were calibrated on: the table
is in-sample (see bench/real/ for held-out programs).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "faults"
DEFAULT = ("lr_too_low_sgd_regression,missing_zero_grad_sgd,data_unnormalized_tabular,label_misaligned_shuffled,"
           "healthy_mlp_adam,bad_init_normal_deep,loss_reduction_sum_mse,data_nonfinite_features,"
           "loss_mismatch_softmax_ce,healthy_cnn_sgd_cosine,exploding_gradient_rnn,fp16_overflow_autocast,"
           "lr_too_high_sgd_cnn,lr_too_high_adam_mlp")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="?", default=DEFAULT)
    ap.add_argument("--out", default=str(Path.home() / ".cache" / "traindoc-bench-confirm"))
    a = ap.parse_args()
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
    td = [sys.executable, "-m", "traindoc"]
    from traindoc.diagnose import diagnose

    rows, hits_b, hits_a, n, false_b, false_a = [], 0, 0, 0, 0, 0
    for name in a.names.split(","):
        run = Path(a.out) / name
        if not run.is_dir():
            subprocess.run([*td, "run", "--out", str(run), str(HERE / f"{name}.py")], env=env, capture_output=True)
        if not (run / "confirm.json").is_file():
            subprocess.run([*td, "confirm", "--json", "--seconds", "60", str(run)], env=env, capture_output=True)
        if not (run / "confirm.json").is_file():
            print(f"{name}: confirm did not run", file=sys.stderr)
            continue
        m = re.search(r"(?:expect|fault)\s*:\s*([a-z0-9-]+)", (HERE / f"{name}.py").read_text(), re.I)
        want = m.group(1).lower() if m else "?"
        b, d = diagnose(run, experiments=False), diagnose(run)
        tb = b.causes[0].name if b.causes else "-"
        ta = d.causes[0].name if d.causes else "-"
        data = json.loads((run / "confirm.json").read_text())
        conf = [r["cause"] for r in data["results"] if r["verdict"] == "confirmed"]
        refuted = sum(r["verdict"] == "refuted" for r in data["results"])
        if want == "healthy":
            false_b += any(c.severity == "error" for c in b.causes)
            false_a += any(c.severity == "error" for c in d.causes)
        else:
            n += 1
            hits_b += tb == want
            hits_a += ta == want
        rows.append(f"| {name} | `{want}` | {tb} | {ta} | {', '.join(conf) or '-'} | {refuted} | {data['seconds']:.0f} |")
    print("| script | expected | top cause before | after confirm | confirmed | refuted | s |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"\nTop-1 on the {n} faulty scripts: {hits_b}/{n} before, {hits_a}/{n} after; healthy scripts with an "
          f"error-severity cause: {false_b} before, {false_a} after.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
