"""Score the symptom rules on the calibration grid recorded by run_all.py.

    python bench/calib/run_all.py /tmp/calib -j 2 && python bench/calib/report.py /tmp/calib

Prints, per injected fault, how many runs showed the expected symptom, and every symptom
found on a healthy run (a false alarm unless the run really misbehaved: say which).
"""
import argparse
import collections
import warnings
from pathlib import Path

from traindoc.diagnose import diagnose

# fault -> symptoms any one of which counts as detected
EXPECT = {
    "spike": {"loss-spike"},
    # too high a rate oscillates, diverges, blows up, or collapses the model to a flat,
    # high loss (a transformer under Adam at lr 0.3 predicts the unigram distribution)
    "lr-high": {"loss-oscillation", "loss-divergence", "loss-nonfinite", "loss-spike", "loss-plateau"},
    "lr-low": {"loss-plateau"},
    "diverge": {"loss-divergence", "loss-nonfinite"},
    "slow": {"slow-step"},
    "plateau-high": {"loss-plateau"},
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    a = ap.parse_args()
    warnings.filterwarnings("ignore")
    hit = collections.Counter()
    total = collections.Counter()
    missed, healthy_alarms, healthy_runs, healthy_errors = [], [], 0, []
    for run in sorted(Path(a.folder).iterdir()):
        fault = run.name.split("-", 3)[3]
        try:
            d = diagnose(run)
        except Exception as exc:  # noqa: BLE001 - an unfinished run in the grid
            print(f"skip {run.name}: {exc}")
            continue
        found = {f.name for f in d.symptoms}
        if fault in ("none", "cos"):
            healthy_runs += 1
            # slow-step is an "info" measurement of the machine, not of the training
            alarms = sorted(found - {"slow-step"})
            if alarms:
                healthy_alarms.append((run.name, alarms))
            errors = sorted(c.name for c in d.causes if c.severity == "error")
            if errors:  # the promise: a healthy run yields no cause of severity error
                healthy_errors.append((run.name, errors))
            continue
        total[fault] += 1
        if found & EXPECT[fault]:
            hit[fault] += 1
        else:
            missed.append((run.name, sorted(found)))
    print("| injected fault | expected symptom | detected |")
    print("|---|---|---:|")
    for f in EXPECT:
        if total[f]:
            print(f"| {f} | {' or '.join(sorted(EXPECT[f]))} | {hit[f]}/{total[f]} |")
    print(f"| none (healthy) | no loss/gradient symptom | {healthy_runs - len(healthy_alarms)}/{healthy_runs} silent |")
    print(f"| none (healthy) | no cause of severity error | {healthy_runs - len(healthy_errors)}/{healthy_runs} |")
    for name, found in missed:
        print(f"missed: {name}: found {found or 'nothing'}")
    for name, found in healthy_alarms:
        print(f"healthy run with symptoms: {name}: {found}")
    for name, found in healthy_errors:
        print(f"healthy run with error causes: {name}: {found}")


if __name__ == "__main__":
    main()
