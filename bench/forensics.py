"""Forensics benchmark: group testing against a one-at-a-time scan, and what capture costs.

Table 1: finding the bad samples of a batch (a two-layer transformer whose attention
masks padded keys with -inf: a fully padded sample makes its softmax rows NaN), batch
sizes 32..1024, one and three bad samples. "passes" are forward passes (each over a
sub-batch); group testing = :func:`traindoc.forensics.bisect.find_bad_samples` (with the
verification pass), scan = one forward per sample. Wall time: median of 3, interleaved.

Table 2: what the monitor pays for triggers and bundles on a healthy step (the RNG state
copy per batch, the spike bands), and the rolling snapshot (memory, copy time).

    python bench/forensics.py            # ~1 min on a laptop CPU
"""

from __future__ import annotations

import os
import statistics
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import torch  # noqa: E402

from traindoc.forensics import examples as E  # noqa: E402
from traindoc.forensics.bisect import find_bad_samples, slice_batch  # noqa: E402


def _fails(ex: E.Example):
    def fails(group: list[int]) -> bool:
        inputs = slice_batch(ex.inputs, group, batch_size=len(ex.targets))
        targets = ex.targets[torch.tensor(group)]
        with torch.no_grad():
            return not bool(torch.isfinite(ex.forward_loss(inputs, targets)))

    return fails


def _bad_positions(B: int, k: int) -> tuple[int, ...]:
    return tuple(sorted({(B * (2 * i + 1)) // (2 * k) + 3 for i in range(k)}))[:k]


def table_search() -> None:
    print("Table 1: finding the bad samples (masked-row transformer, forward passes and wall time)")
    print(f"{'batch':>6} {'bad':>4} | {'group passes':>12} {'scan passes':>11} | {'group s':>8} {'scan s':>8} "
          f"{'speed-up':>8} | found")
    for B in (32, 64, 128, 256, 512, 1024):
        for k in (1, 3):
            bad = _bad_positions(B, k)
            ex = E.make_masked_row(batch=B, bad=bad)
            fails = _fails(ex)
            tg, ts = [], []
            for _ in range(3):  # interleaved A/B
                t0 = time.perf_counter()
                res = find_bad_samples(fails, B)
                tg.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                scan = [i for i in range(B) if fails([i])]
                ts.append(time.perf_counter() - t0)
            g, s = statistics.median(tg), statistics.median(ts)
            ok = "yes" if res.bad == list(bad) == scan else f"NO {res.bad} {scan}"
            print(f"{B:>6} {k:>4} | {res.calls:>12} {B:>11} | {g:>8.3f} {s:>8.3f} {s / g:>7.1f}x | {ok}")


def _per_call(fn, n: int) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n


def table_capture() -> None:
    from traindoc.monitor.capture import Band, _rng_state

    print("\nTable 2: capture cost on a healthy step (CPU)")
    rng_us = _per_call(_rng_state, 2000) * 1e6
    band = Band()
    for i in range(200):
        band.push(1.0 + 0.01 * (i % 7))
    band_us = _per_call(lambda: band.push(1.03), 4000) * 1e6
    print(f"  RNG state per batch drawn (torch CPU generator):    {rng_us:8.1f} us")
    print(f"  spike band per series per step (median/MAD of 200, recomputed every 8): {band_us:8.1f} us  "
          f"(x2: loss, grad norm)")
    for d in (256, 1024):
        model = torch.nn.Sequential(*[torch.nn.Linear(d, d) for _ in range(8)])
        n_bytes = sum(p.numel() * p.element_size() for p in model.state_dict().values())
        bufs = {k: torch.empty_like(v) for k, v in model.state_dict().items()}

        def snap():
            for k, v in model.state_dict(keep_vars=True).items():
                bufs[k].copy_(v.detach())

        ms = _per_call(snap, 20) * 1e3
        print(f"  snapshot of a {n_bytes / 1e6:6.1f} MB model: {ms:7.2f} ms per copy, memory 2 x {n_bytes / 1e6:.1f} MB "
              f"(every 100 steps by default: {ms / 100:.3f} ms per step)")


def table_overhead(rounds: int = 7, steps: int = 60) -> None:
    """Monitored step time with triggers and bundles on and off (no trigger fires), and
    unmonitored, interleaved A B C in one process; a DataLoader loop, so the per-batch
    capture runs."""
    import tempfile
    import warnings

    import traindoc
    from torch.utils.data import DataLoader, TensorDataset

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10))
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    data = TensorDataset(torch.randn(64 * steps, 256), torch.randint(0, 10, (64 * steps,)))

    def block() -> float:
        t0 = time.perf_counter()
        for x, y in DataLoader(data, batch_size=64, shuffle=True):
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        return (time.perf_counter() - t0) / steps

    times: dict[str, list[float]] = {"unmonitored": [], "monitor, no bundles": [], "monitor + triggers/bundles": []}
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds + 1):
            a = block()
            with traindoc.watch(out=f"{tmp}/off{r}", bundles=False):
                b = block()
            with traindoc.watch(out=f"{tmp}/on{r}"):
                c = block()
            if r:  # round 0 warms up
                for k, v in zip(times, (a, b, c)):
                    times[k].append(v)
    base = statistics.median(times["monitor, no bundles"])
    print(f"\nTable 3: step time, MLP 256-512-10, batch 64 from a DataLoader, median of {rounds} rounds x {steps} steps")
    for k, v in times.items():
        m = statistics.median(v)
        print(f"  {k:<28} {m * 1e3:7.3f} ms  ({(m / base - 1) * 100:+5.1f} % against the monitor without bundles)")


if __name__ == "__main__":
    torch.set_num_threads(1)
    table_search()
    table_capture()
    table_overhead()
