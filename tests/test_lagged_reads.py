"""Lagged reads (``Monitor(reads="lagged")``, monitor/record.py): a step's numbers are read
at the next step's boundary, so nothing on the training thread waits for the device. The
same code path runs here on CPU: the record (series, events, indices) and the bundle of a
bad step must be what the sync reads give, and each step's transfer must be read only
once the next step has begun."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from torch import nn

import traindoc
from traindoc.forensics.bundle import Bundle, find_bundles


def _train(out, reads, nan_at=13, steps=30, sample_every=3):
    """Classification with a DataLoader, two optimizers (a second head stepped by its own),
    sampled steps (activations, update ratio, label histogram), an evaluation pass under
    no_grad every 10 steps, and a non-finite sample drawn at step ``nan_at``."""
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(320, 6, generator=g)
    y = (x.sum(1) > 0).long()
    if nan_at is not None:
        x[nan_at * 8 + 3, 2] = float("inf")  # the 4th sample of the batch of step nan_at (no shuffle)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=8)
    body = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.BatchNorm1d(16))
    head, aux = nn.Linear(16, 2), nn.Linear(16, 1)
    opt = torch.optim.Adam([*body.parameters(), *head.parameters()], 1e-2)
    opt2 = torch.optim.SGD(aux.parameters(), 0.1)
    losses = []
    with traindoc.watch(out=out, sample_every=sample_every, reads=reads, replay=False):
        for i, (xb, yb) in enumerate(loader):
            if i == steps:
                break
            h = body(xb)
            loss = nn.functional.cross_entropy(head(h), yb) + 0.1 * aux(h.detach()).pow(2).mean()
            opt.zero_grad()
            opt2.zero_grad()
            loss.backward()
            opt.step()
            opt2.step()
            losses.append(loss.item())
            if i % 10 == 9:
                with torch.no_grad():
                    nn.functional.cross_entropy(head(body(x[:32])), y[:32])
    return losses


def _record(path):
    run = traindoc.open_run(path)
    series = {n: (run.series(n).steps.tolist(), run.series(n).values.tolist()) for n in run.names()
              if not n.startswith("time/")}  # wall-clock times differ between any two runs
    events = sorted((e["step"], e["kind"], e["message"].replace(str(path), "RUN"))
                    for e in run.events() if e["kind"] not in ("bundle", "labels"))
    labels: dict[str, float] = {}  # written on sampled steps: the total is what must agree
    for e in run.events():
        if e["kind"] == "labels":
            for k, c in e["data"]["counts"].items():
                labels[k] = labels.get(k, 0) + c
    events.append((-1, "labels", json.dumps(labels, sort_keys=True)))
    indices = [run.batch_indices(s) for s in range(run.meta["steps"])]
    return run, series, events, indices


def test_lagged_record_and_bundle_equal_the_sync_ones(tmp_path):
    a = _train(tmp_path / "sync", "sync")
    b = _train(tmp_path / "lagged", "lagged")
    assert a == b or np.allclose(a, b, equal_nan=True)  # the training itself is untouched
    ra, sa, ea, ia = _record(tmp_path / "sync")
    rb, sb, eb, ib = _record(tmp_path / "lagged")
    assert ra.meta["reads"]["mode"] == "sync" and rb.meta["reads"]["mode"] == "lagged"
    assert sa.keys() == sb.keys()
    # The steps sampled after the anomaly at 13 are 14-16 (sync) and 15-17 (lagged: it is
    # seen when step 14 has begun), and the sampling schedule goes on from there; the
    # per-step series have the same steps, and every value recorded by both is the same,
    # bit for bit.
    for n in sa:
        (xa, va), (xb, vb) = sa[n], sb[n]
        assert [s for s in xa if s <= 13] == [s for s in xb if s <= 13], n
        if len(xa) >= 29:
            assert xa == xb, n
        common = sorted(set(xa) & set(xb))
        np.testing.assert_array_equal(np.array([va[xa.index(s)] for s in common]),
                                      np.array([vb[xb.index(s)] for s in common]), err_msg=n)
    assert any(n.startswith("update_ratio/") for n in sa) and any(n.startswith("act/") for n in sa)
    assert "loss/eval" in sa and any(n.endswith("/opt1") for n in sa)
    assert ea == eb
    assert sum(json.loads(ea[-1][2]).values()) == 30 * 8  # every training label counted once
    assert any(k == "trigger" for _, k, _ in ea)
    for u, v in zip(ia, ib):
        assert (u is None and v is None) or np.array_equal(u, v)
    # the bundle: same step, same batches, the weights the bad step's forward used
    (pa,), (pb,) = find_bundles(tmp_path / "sync"), find_bundles(tmp_path / "lagged")
    ba, bb = Bundle(pa), Bundle(pb)
    assert ba.step == bb.step == 13
    assert bb.meta["lagged"] == {"weights": "kept", "optimizer": "after the step"}
    assert ba.meta["prev_step"] == bb.meta["prev_step"] == 12
    ma, mb = ba.load("model.pt"), bb.load("model.pt")
    assert ma.keys() == mb.keys()
    for k in ma:  # (BatchNorm's running stats took the NaN in the step's forward: in both)
        torch.testing.assert_close(ma[k], mb[k], rtol=0, atol=0, equal_nan=True, msg=k)
    for which in ("batch", "prev_batch"):
        (xa, ia_), (xb, ib_) = ba.batches(which)[0], bb.batches(which)[0]
        assert ia_ == ib_
        assert all(torch.equal(u, v) for u, v in zip(xa, xb))
    assert json.dumps(ba.rng(), default=str) == json.dumps(bb.rng(), default=str)


def test_a_step_is_read_only_after_the_next_one_began(tmp_path, monkeypatch):
    """The lagged contract: the transfer of step t is read at step t+1's boundary (or at
    close), never at its own: on a GPU that is what keeps the queue from draining."""
    steps_at_read = []
    from traindoc.monitor import record

    orig_write = record.Recorder._write

    def write(self, p):
        steps_at_read.append((p.step, self.mon.step, self.mon.closed))
        return orig_write(self, p)

    monkeypatch.setattr(record.Recorder, "_write", write)
    _train(tmp_path / "r", "lagged", nan_at=None, steps=12)
    assert [s for s, _, _ in steps_at_read] == list(range(12))
    for step, now, closed in steps_at_read:
        assert now == step + 1 or closed, (step, now)


def test_reads_auto_is_sync_on_cpu_and_a_bad_mode_is_refused(tmp_path):
    _train(tmp_path / "r", "auto", nan_at=None, steps=3)
    meta = traindoc.open_run(tmp_path / "r").meta["reads"]
    assert meta["mode"] == "sync" and "not on a GPU" in meta["why"]
    from traindoc.errors import UserError

    with pytest.raises(UserError, match="reads='soon'"):
        traindoc.watch(out=tmp_path / "x", reads="soon")


def test_lagged_leak_check_and_skipped_loss(tmp_path):
    """The checks that used to read at once (target-in-input, a loss the script skipped)
    give the same events, at the same steps, a step later."""
    for reads in ("sync", "lagged"):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Embedding(50, 8), nn.Linear(8, 50))
        opt = torch.optim.SGD(model.parameters(), 0.1)
        idx = torch.randint(0, 50, (16, 12))
        with traindoc.watch(out=tmp_path / reads, reads=reads, replay=False):
            for i in range(6):
                logits = model(idx)
                if i == 4:
                    logits = logits * float("nan")
                loss = nn.functional.cross_entropy(logits.reshape(-1, 50), idx.reshape(-1))  # y = x
                if torch.isnan(loss):
                    continue  # the script's own guard: the NaN is never backpropagated
                opt.zero_grad()
                loss.backward()
                opt.step()
    ev = {r: sorted((e["step"], e["kind"]) for e in traindoc.open_run(tmp_path / r).events()
                    if e["kind"] in ("target-in-input", "loss-skipped", "trigger"))
          for r in ("sync", "lagged")}
    assert ev["sync"] == ev["lagged"]
    assert ev["sync"] == [(0, "target-in-input"), (4, "loss-skipped"), (4, "trigger")]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_lagged_steps_do_not_sync_on_a_gpu(tmp_path):
    """On a GPU: no device-to-host sync during monitored steps (torch raises on one)."""
    torch.manual_seed(0)
    dev = "cuda"
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).to(dev)
    opt = torch.optim.AdamW(model.parameters(), 1e-3, fused=True)
    x = torch.randn(4096, 32, device=dev)
    y = torch.randint(0, 10, (4096,), device=dev)
    with traindoc.watch(out=tmp_path / "r", reads="lagged", sample_every=5, replay=False):
        for i in range(40):
            xb, yb = x[i * 64:(i + 1) * 64], y[i * 64:(i + 1) * 64]
            if i == 2:
                torch.cuda.synchronize()
                torch.cuda.set_sync_debug_mode("error")  # after the first steps' one-time setup
            try:
                loss = nn.functional.cross_entropy(model(xb), yb)
                opt.zero_grad(set_to_none=True)
                loss.backward()
                opt.step()
            finally:
                if i == 39:
                    torch.cuda.set_sync_debug_mode("default")
    run = traindoc.open_run(tmp_path / "r")
    assert run.meta["reads"]["mode"] == "lagged"
    assert len(run.series("loss").values) == 40
    assert not [e for e in run.events() if e["kind"] == "monitor-error"]
