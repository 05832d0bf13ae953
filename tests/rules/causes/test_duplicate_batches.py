"""data-duplicates from how batches repeat, not which inputs: every batch one input copied
(a chunked reader that forgot the offset inside its chunk, bench/real 407), and each batch
handed out several steps in a row (prefetch workers holding copies of one batch generator,
bench/real 408). Full-batch training, which repeats its one batch by design, is not."""

import copy

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


def _fit(tmp_path, batches):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    with traindoc.watch(out=tmp_path, replay=False):
        for x, y in batches:
            loss = F.mse_loss(model(x).squeeze(1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.diagnose(tmp_path).causes


g = torch.Generator().manual_seed(0)
X, Y = torch.randn(6400, 16, generator=g), torch.randn(6400, generator=g)


def test_every_batch_one_input_copied(tmp_path):
    rows = [torch.full((64,), i * 64) for i in range(100)]  # the chunk's start, 64 times
    causes = _fit(tmp_path, [(X[r], Y[r]) for r in rows * 2])
    assert causes and causes[0].name == "data-duplicates" and "same batch" in causes[0].message


class _Gen:
    def __init__(self):
        self.i = 0

    def __next__(self):
        r = torch.arange(self.i, self.i + 64) % 6400
        self.i += 64
        return X[r], Y[r]


def test_each_batch_repeated_by_copied_workers(tmp_path):
    workers = [copy.copy(_Gen()) for _ in range(8)]
    causes = _fit(tmp_path, [next(workers[s % 8]) for s in range(320)])
    assert causes and causes[0].name == "data-duplicates" and "previous step's batch" in causes[0].message


def test_one_shared_generator_and_full_batch_are_fine(tmp_path):
    gen = _Gen()
    assert "data-duplicates" not in [c.name for c in _fit(tmp_path / "a", [next(gen) for _ in range(320)])]
    full = [(X[:512], Y[:512])] * 200  # full-batch gradient descent on a small set
    assert "data-duplicates" not in [c.name for c in _fit(tmp_path / "b", full)]
