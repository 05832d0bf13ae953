"""Record the calibration grid under `traindoc run` (one folder per config) and print the
path. Usage: python bench/calib/run_all.py OUTDIR [-j 2]"""
import argparse
import itertools
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent


def grid():
    models = ["mlp", "logreg", "cnn", "rnn", "lm"]
    for m, o, s in itertools.product(models, ["adam", "sgd", "momentum", "adamw"], [0, 1]):
        yield f"{m}-{o}-s{s}-none", ["--model", m, "--opt", o, "--seed", str(s), "--bs", str([16, 32, 64][s % 3 if o != 'sgd' else 2])]
    for m, o, s in itertools.product(models, ["adam", "momentum"], [2]):  # noisy: small batches, schedule, dropout
        yield f"{m}-{o}-s{s}-cos", ["--model", m, "--opt", o, "--seed", str(s), "--bs", "8", "--sched", "cosine",
                                    "--dropout", "0.1"]
    for i, (f, m) in enumerate(itertools.product(["spike", "lr-high", "lr-low", "diverge", "slow", "plateau-high"], models)):
        o = ["adam", "sgd", "momentum"][i % 3]
        yield f"{m}-{o}-s0-{f}", ["--model", m, "--opt", o, "--seed", "0", "--fault", f]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, OMP_WAIT_POLICY="PASSIVE", OMP_NUM_THREADS="1")

    def one(item):
        name, args = item
        if (out / name).exists():
            return name, 0
        r = subprocess.run([sys.executable, "-m", "traindoc", "run", "--out", str(out / name),
                            str(HERE / "train.py"), *args], env=env, capture_output=True, text=True)
        return name, r.returncode

    items = [g for g in grid() if a.only in g[0]]
    with ThreadPoolExecutor(a.j) as ex:
        for name, rc in ex.map(one, items):
            print(name, rc, flush=True)


if __name__ == "__main__":
    main()
