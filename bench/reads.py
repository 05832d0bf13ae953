"""Sync against lagged reads (``traindoc.watch(reads=...)``): wall time per step of blocks
of steps run unmonitored, monitored with sync reads and monitored with lagged reads,
interleaved (A B C A B C ...) in one process, each block timed from a synchronised
device to a synchronised device (so a GPU's queued work is counted), median over rounds
of the per-round ratios to the unmonitored block.

On a GPU this is the measurement the lagged reads exist for: a sync per step drains the
queue of launched kernels, which costs most on short, launch-bound steps (the small
MLP); with ``--sync-check`` it also trains the lagged blocks under
``torch.cuda.set_sync_debug_mode("error")`` (torch raises on any sync). On CPU both modes
cost about the same (nothing to drain; lagged adds a copy of the weights per step).

    OMP_WAIT_POLICY=PASSIVE python bench/reads.py [--device cuda] [--rounds 7] [--steps 50] [--sync-check]
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


def small_mlp(dev):
    model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)).to(dev)
    x, y = torch.randn(128, 64, device=dev), torch.randint(0, 10, (128,), device=dev)
    return "MLP 2x256, batch 128", model, lambda m: nn.functional.cross_entropy(m(x), y)


def lm(dev, d=256, layers=4, T=128, B=16, vocab=2000):
    layer = nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.0, batch_first=True, norm_first=True)

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb, self.enc, self.head = nn.Embedding(vocab, d), nn.TransformerEncoder(layer, layers), nn.Linear(d, vocab)

        def forward(self, x):
            return self.head(self.enc(self.emb(x), is_causal=True,
                                      mask=nn.Transformer.generate_square_subsequent_mask(x.shape[1], device=x.device)))

    model = LM().to(dev)
    x = torch.randint(0, vocab, (B, T + 1), device=dev)
    return (f"transformer LM ({layers}x{d}, T={T}, B={B})", model,
            lambda m: nn.functional.cross_entropy(m(x[:, :-1]).reshape(-1, vocab), x[:, 1:].reshape(-1)))


def sync(dev):
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)


def block(model, opt, loss_of, steps, dev, check=False):
    sync(dev)
    t0 = time.perf_counter()
    for i in range(steps):
        if check and i == 3 and dev.type == "cuda":  # after the monitor's one-time setup
            torch.cuda.set_sync_debug_mode("error")
        opt.zero_grad(set_to_none=True)
        loss_of(model).backward()
        opt.step()
    if check and dev.type == "cuda":
        torch.cuda.set_sync_debug_mode("default")
    sync(dev)
    return (time.perf_counter() - t0) / steps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--sync-check", action="store_true")
    a = ap.parse_args()
    dev = torch.device(a.device)
    if dev.type == "cpu":
        torch.set_num_threads(1)
    torch.manual_seed(0)
    warnings.filterwarnings("ignore")
    rows = []
    for make in (small_mlp, lm):
        name, model, loss_of = make(dev)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        block(model, opt, loss_of, 5, dev)  # warm up
        plain, r_sync, r_lag = [], [], []
        with tempfile.TemporaryDirectory() as tmp:
            for r in range(a.rounds):
                tp = block(model, opt, loss_of, a.steps, dev)
                with traindoc.watch(out=f"{tmp}/s{r}", reads="sync", sample_every=10**9):
                    ts = block(model, opt, loss_of, a.steps, dev)
                with traindoc.watch(out=f"{tmp}/l{r}", reads="lagged", sample_every=10**9):
                    tl = block(model, opt, loss_of, a.steps, dev, check=a.sync_check)
                plain.append(tp)
                r_sync.append(ts / tp)
                r_lag.append(tl / tp)
        rows.append((name, statistics.median(plain) * 1e3, (statistics.median(r_sync) - 1) * 100,
                     (statistics.median(r_lag) - 1) * 100))
    print(f"torch {torch.__version__}, {dev}, {a.rounds} interleaved rounds x {a.steps} steps "
          f"(sampling off: the per-step cost only){', lagged blocks under sync_debug_mode error' if a.sync_check else ''}")
    print("| workload | plain ms/step | sync reads overhead | lagged reads overhead |")
    print("|---|---:|---:|---:|")
    for n, p, s, l in rows:
        print(f"| {n} | {p:.2f} | {s:+.1f} % | {l:+.1f} % |")


if __name__ == "__main__":
    main()
