"""data-duplicates in a recorded run: one training input repeated thousands of times (the
monitor counts the fingerprints of the training rows of the first steps), against
ordinary epochs (every row back once an epoch) and a small input space."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


def _run(tmp_path, X, Y, steps=120, bs=64):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Linear(32, Y.shape[1]))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(steps):
            i = torch.randint(0, len(X), (bs,))
            loss = F.mse_loss(model(X[i]), Y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "data-duplicates"]


def test_one_input_copied_thousands_of_times_is_an_error(tmp_path):
    g = torch.Generator().manual_seed(0)
    X, Y = torch.randn(500, 12, generator=g), torch.randn(500, 3, generator=g)
    X, Y = torch.cat([X, X[:1].repeat(3000, 1)]), torch.cat([Y, Y[:1].repeat(3000, 1)])
    (c,) = _run(tmp_path, X, Y)
    assert c.severity == "error" and "one training input is 8" in c.message


def test_distinct_rows_and_a_small_input_space_are_not(tmp_path):
    g = torch.Generator().manual_seed(0)
    X, Y = torch.randn(500, 12, generator=g), torch.randn(500, 3, generator=g)
    assert _run(tmp_path / "a", X, Y) == []
    bits = torch.randint(0, 2, (2000, 3), generator=g).float()  # 8 distinct inputs
    assert _run(tmp_path / "b", bits, torch.randn(2000, 1, generator=g)) == []


def test_a_cell_called_per_time_step_has_no_sample_rows(tmp_path):
    # the same one-hot tokens and zero states recur at every step's first time step: states
    # and tokens, not samples; nothing about duplicates (nor overlaps) is said
    torch.manual_seed(0)
    cell = nn.RNNCell(5, 8)
    head = nn.Linear(8, 5)
    opt = torch.optim.SGD(list(cell.parameters()) + list(head.parameters()), lr=0.1)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(40):
            seq = torch.randint(0, 5, (16, 12))
            h = torch.zeros(16, 8)
            loss = 0
            for t in range(11):
                h = cell(F.one_hot(seq[:, t], 5).float(), h)
                loss = loss + F.cross_entropy(head(h), seq[:, t + 1])
            opt.zero_grad()
            loss.backward()
            opt.step()
    events = {e["kind"] for e in traindoc.open_run(tmp_path / "r").events()}
    assert "row-repeats" not in events and "split-overlap" not in events


def _epochs(tmp_path, X, Y, epochs=6, bs=50, loader=False, val=None, lr=1e-3):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Linear(32, Y.shape[1]))
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, Y), batch_size=bs, shuffle=True)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(epochs):
            batches = dl if loader else ((X[i], Y[i]) for i in torch.randperm(len(X)).split(bs))
            for x, y in batches:
                loss = F.mse_loss(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
            if val is not None:
                with torch.no_grad():
                    F.mse_loss(model(val[0]), val[1])
    causes = traindoc.diagnose(tmp_path / "r").causes
    return [c for c in causes if c.name == "data-duplicates"] if val is None else causes


def test_every_input_many_times_over_is_a_warning(tmp_path):
    # a generator seeded from a pool of 120 seeds (bench/real 255): 2 000 rows, 120 inputs
    g = torch.Generator().manual_seed(0)
    X, Y = torch.randn(120, 12, generator=g), torch.randn(120, 3, generator=g)
    pick = torch.randint(0, 120, (2000,), generator=g)
    (c,) = _epochs(tmp_path / "a", X[pick], Y[pick])
    assert c.severity == "warning" and "torch.randperm(2000)" in c.message
    (c,) = _epochs(tmp_path / "b", X[pick], Y[pick], loader=True)
    assert "permutes 2000 rows" in c.message


def test_distinct_epochs_and_a_subset_picked_once_are_not(tmp_path):
    g = torch.Generator().manual_seed(0)
    X, Y = torch.randn(6000, 12, generator=g), torch.randn(6000, 3, generator=g)
    keep = torch.randperm(6000)[:800]  # a subset, picked once
    assert _epochs(tmp_path / "a", X[keep], Y[keep]) == []
    assert _epochs(tmp_path / "b", X[:1000], Y[:1000], loader=True) == []


def test_copies_the_model_memorises_rank_above_the_overfitting_they_cause(tmp_path):
    # 120 inputs copied to 2 000 rows, noisy targets: the validation loss turns up
    g = torch.Generator().manual_seed(0)
    X = torch.randn(120, 12, generator=g)
    w = torch.randn(12, 3, generator=g)
    Y = X @ w + torch.randn(120, 3, generator=g)
    Xv = torch.randn(500, 12, generator=g)
    pick = torch.randint(0, 120, (2000,), generator=g)
    causes = _epochs(tmp_path, X[pick], Y[pick], epochs=12, val=(Xv, Xv @ w), lr=3e-3)
    names = [c.name for c in causes]
    assert names[:2] == ["data-duplicates", "overfitting"], names
    assert "memorises them: the validation loss bottomed out" in causes[0].message


def test_many_inputs_each_copied_many_times(tmp_path):
    # bench/real 281: an importer appends 60 copies of 80 clips to 1,500 distinct ones; each
    # copied clip is only ~1 % of the rows (no single input dominates), but a shuffling
    # DataLoader permutes 6,380 rows an epoch that hold 1,500 distinct inputs
    from torch.utils.data import DataLoader, TensorDataset

    g = torch.Generator().manual_seed(0)
    X, Y = torch.randn(1500, 12, generator=g), torch.randn(1500, 3, generator=g)
    rows = torch.tensor(list(range(1500)) + list(range(80)) * 60)
    loader = DataLoader(TensorDataset(X[rows], Y[rows]), batch_size=64, shuffle=True, generator=g)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(2):
            for xb, yb in loader:
                loss = F.mse_loss(model(xb), yb)
                opt.zero_grad()
                loss.backward()
                opt.step()
    (c,) = [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "data-duplicates"]
    assert "hold only" in c.message and "the most frequent came" in c.message


def test_copies_seen_within_the_first_epoch(tmp_path):
    # bench/real 361: each compound 30-50 times in a big table; the monitor's window (the
    # first 300 steps) ends inside the first epoch, and its rows, each drawn once, hold only
    # a twentieth as many distinct inputs
    g = torch.Generator().manual_seed(0)
    X, Y = torch.randn(400, 12, generator=g), torch.randn(400, 3, generator=g)
    rows = torch.arange(400).repeat(40)  # 16 000 rows
    (c,) = _epochs(tmp_path / "a", X[rows], Y[rows], epochs=2, bs=32, loader=True)
    assert "within the first epoch" in c.message and "permutes 16000 rows" in c.message
    # the same size, every row distinct: nothing
    X, Y = torch.randn(16000, 12, generator=g), torch.randn(16000, 3, generator=g)
    assert _epochs(tmp_path / "b", X, Y, epochs=2, bs=32, loader=True) == []
