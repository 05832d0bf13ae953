"""Step-time overhead of traindoc's default monitoring on CPU workloads.

For each workload, blocks of steps run unmonitored, monitored (``traindoc.watch`` at
default settings: sync reads on CPU), monitored with lagged reads (``reads="lagged"``,
the GPU default for models whose weights fit 5 % of its memory: here it measures the
per-step copy of the weights it adds, not the sync it saves, which only a GPU has) and
under ``torch.autograd.detect_anomaly`` for reference, interleaved (A B C D A B C D ...)
in one process with one thread, and the table reports the median step time of each and
the median of the per-round ratios. Memory: the bytes of tensors the monitor holds
between steps outside sampled steps, against the model's parameter bytes.

    OMP_WAIT_POLICY=PASSIVE python bench/overhead.py [--rounds 7] [--steps 20]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import warnings

import torch
from torch import nn

import traindoc


def mlp():
    model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10))
    x, y = torch.randn(256, 512), torch.randint(0, 10, (256,))
    return "MLP 2x1024", model, lambda m: nn.functional.cross_entropy(m(x), y)


def cnn():
    model = nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(64, 128, 3, padding=1), nn.BatchNorm2d(128), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(128, 10))
    x, y = torch.randn(32, 3, 32, 32), torch.randint(0, 10, (32,))
    return "small CNN (32x32)", model, lambda m: nn.functional.cross_entropy(m(x), y)


class LM(nn.Module):
    def __init__(self, vocab=2000, d=256, layers=4, heads=4, T=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.zeros(T, d))
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.1, batch_first=True, norm_first=True)
        self.enc = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(d, vocab)
        self.register_buffer("mask", nn.Transformer.generate_square_subsequent_mask(T))

    def forward(self, x):
        return self.head(self.enc(self.emb(x) + self.pos, mask=self.mask, is_causal=True))


def lm():
    model = LM(vocab=1000, d=128, layers=2, heads=4, T=64)
    x = torch.randint(0, 1000, (16, 65))
    inp, tgt = x[:, :-1], x[:, 1:]
    return "transformer LM (2x128, T=64)", model, lambda m: nn.functional.cross_entropy(
        m(inp).reshape(-1, 1000), tgt.reshape(-1))


def block(model, opt, loss_of, steps, mon=None):
    """Step times of ``steps`` training steps (and, monitored, which steps were sampled)."""
    times, sampled = [], []
    for _ in range(steps):
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss = loss_of(model)
        loss.backward()
        opt.step()
        times.append(time.perf_counter() - t0)
        sampled.append(bool(mon is not None and mon.rec.sampled))
    return times if mon is None else (times, sampled)


def held_bytes(mon) -> int:
    """Bytes of tensors the monitor keeps between steps (outside sampled steps)."""
    total = 0
    seen = set()

    def add(t):
        nonlocal total
        if isinstance(t, torch.Tensor) and id(t) not in seen:
            seen.add(id(t))
            total += t.numel() * t.element_size()

    rec = mon.rec  # the step in progress
    for ts in (rec.losses, rec.preclip, rec.act_vals, rec.before or []):
        for t in ts:
            add(t)
    for ev in mon.loss_fns._eval.values():  # evaluation losses waiting for the next sync
        for t in ev:
            add(t)
    add(mon.backward.last_loss)
    add(mon.loss_fns.label_counts)
    for _, t in mon.scalers._scaled.values():
        add(t)
    for _, _, ts, _ in mon.recorder._deferred:
        for t in ts:
            add(t)
    for t in mon.capture._kept.values():  # lagged reads: the weights kept at the last boundary
        add(t)
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    warnings.filterwarnings("ignore")
    rows = []
    for make in (mlp, cnn, lm):
        name, model, loss_of = make()
        if a.only and a.only not in name:
            continue
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        block(model, opt, loss_of, 3)  # warm up
        plain, unsampled, sampled_cost, anomaly, r_td, r_da, held, intervals = [], [], [], [], [], [], [], []
        r_lag, held_lag = [], []
        with tempfile.TemporaryDirectory() as tmp:
            for r in range(a.rounds):  # interleaved: plain, monitored, detect_anomaly, plain, ...
                tp = statistics.median(block(model, opt, loss_of, a.steps))
                mon = traindoc.watch(out=f"{tmp}/run{r}")
                with mon:
                    tt, ss = block(model, opt, loss_of, a.steps + 3, mon)
                    held.append(held_bytes(mon))
                    intervals.append(mon.sampler.interval)
                tu = statistics.median(t for t, s in zip(tt, ss) if not s)
                mon = traindoc.watch(out=f"{tmp}/lagged{r}", reads="lagged")
                with mon:
                    tl, sl = block(model, opt, loss_of, a.steps + 3, mon)
                    held_lag.append(held_bytes(mon))
                r_lag.append(statistics.median(t for t, s in zip(tl, sl) if not s) / tp)
                ts = [t for t, s in zip(tt[3:], ss[3:]) if s]  # the 3 warm-up steps are always sampled
                with torch.autograd.detect_anomaly(check_nan=True):
                    td = statistics.median(block(model, opt, loss_of, max(3, a.steps // 4)))
                plain.append(tp)
                unsampled.append(tu)
                anomaly.append(td)
                sampled_cost.extend(t - tu for t in ts or [statistics.median(tt[:3])])
                r_td.append(tu / tp)
                r_da.append(td / tp)
        pbytes = sum(p.numel() * p.element_size() for p in model.parameters())
        tp, iv = statistics.median(plain), statistics.median(intervals)
        # steady state: every unsampled step pays the median ratio; one step in `iv` also
        # pays the sampled extra (the sampler widens `iv` to keep that share near 1 %)
        amort = statistics.median(sampled_cost) / iv / tp * 100
        rows.append((name, tp * 1e3, statistics.median(unsampled) * 1e3,
                     (statistics.median(r_td) - 1) * 100, amort,
                     (statistics.median(r_da) - 1) * 100, max(held) / pbytes * 100, iv,
                     (statistics.median(r_lag) - 1) * 100, max(held_lag) / pbytes * 100))
    print(f"torch {torch.__version__}, 1 thread, {a.rounds} interleaved rounds x {a.steps} steps; "
          f"median over rounds of per-round ratios")
    print("| workload | plain ms/step | monitored ms/step | traindoc overhead | + sampled steps, amortised "
          "| detect_anomaly overhead | monitor memory / params | sampling interval "
          "| lagged reads overhead | lagged memory / params |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, p, t, o, am, d, m, si, lo, lm_ in rows:
        print(f"| {n} | {p:.1f} | {t:.1f} | {o:+.1f} % | {am:+.1f} % | {d:+.0f} % | {m:.3f} % | {si} "
              f"| {lo:+.1f} % | {lm_:.0f} % |")


if __name__ == "__main__":
    main()
