"""Training and evaluation datasets that share rows (traindoc/monitor/splits.py), and the
data-leakage finding of a recorded run built on it."""

import numpy as np
import pytest
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset, Subset, TensorDataset, random_split

import traindoc
from traindoc.monitor.splits import shared_rows


class Arrays(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


X, Y = torch.randn(500, 8), torch.randn(500, 1)


@pytest.mark.parametrize("lib", ["torch", "numpy"])
def test_overlapping_slices_of_one_array(lib):
    x = X if lib == "torch" else X.numpy()
    got = shared_rows(Arrays(x[:-100], Y[:-100]), Arrays(x[100:], Y[100:]))
    assert got == {"shared": 300, "rows": 400, "train_rows": 400, "how": "array view", "shape": "tail"}
    assert shared_rows(Arrays(x[:400], Y[:400]), Arrays(x[400:], Y[400:])) is None  # disjoint


def test_a_strided_or_column_view_is_not_mistaken_for_rows():
    assert shared_rows(Arrays(X[0::2], Y[0::2]), Arrays(X[1::2], Y[1::2])) is None  # interleaved, disjoint
    # other columns of the same rows (and the same target tensor held by both): not a row overlap
    assert shared_rows(Arrays(X[:, :4], Y), Arrays(X[:, 4:], Y)) is None
    assert shared_rows(TensorDataset(X[:, :4]), TensorDataset(X[:, 4:])) is None


def test_subsets_with_intersecting_indices():
    full = TensorDataset(X, Y)
    got = shared_rows(Subset(full, range(0, 400)), Subset(full, list(range(300, 500))))
    assert got["shared"] == 100 and got["rows"] == 200 and got["how"] == "subset indices"
    a, b = random_split(full, [400, 100], generator=torch.Generator().manual_seed(0))
    assert shared_rows(a, b) is None


def test_the_training_set_evaluated_again_is_not_a_leak():
    tr = Arrays(X[:400], Y[:400])
    assert shared_rows(tr, tr) is None
    assert shared_rows(tr, Arrays(X[:400], Y[:400])) is None  # a second wrapper of the same rows


def train(tmp_path, tr, va):
    torch.manual_seed(0)
    m = nn.Linear(8, 1)
    o = torch.optim.SGD(m.parameters(), 0.05)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(3):
            for x, y in DataLoader(tr, batch_size=50, shuffle=True):
                loss = nn.functional.mse_loss(m(x), y)
                o.zero_grad()
                loss.backward()
                o.step()
            with torch.no_grad():
                for x, y in DataLoader(va, batch_size=100):
                    nn.functional.mse_loss(m(x), y)
    return traindoc.diagnose(tmp_path / "r").causes


def test_a_recorded_run_with_an_overlapping_validation_slice(tmp_path):
    found = [c for c in train(tmp_path, Arrays(X[:-100], Y[:-100]), Arrays(X[100:], Y[100:]))
             if c.name == "data-leakage"]
    assert found and found[0].severity == "error" and "300 of the 400 evaluation rows" in found[0].message


def test_a_recorded_run_with_a_disjoint_split_is_quiet(tmp_path):
    assert "data-leakage" not in [c.name for c in train(tmp_path, Arrays(X[:400], Y[:400]), Arrays(X[400:], Y[400:]))]


def test_an_evaluation_set_made_of_training_rows_is_a_warning(tmp_path):
    # a train-subset evaluation (or a validation set drawn from the training rows): a lead
    found = [c for c in train(tmp_path, Arrays(X, Y), Arrays(X[:100], Y[:100])) if c.name == "data-leakage"]
    assert found and found[0].severity == "warning" and "every evaluation row is a training row" in found[0].message


def test_a_forecasting_look_back_is_a_warning_and_checks_run_once_per_pair(tmp_path):
    # validation windows start 48 rows before the end of the training range, on purpose
    found = [c for c in train(tmp_path, Arrays(X[:450], Y[:450]), Arrays(X[402:], Y[402:])) if c.name == "data-leakage"]
    assert found and found[0].severity == "warning" and "look-back" in found[0].message
    events = [e for e in traindoc.open_run(tmp_path / "r").events() if e["kind"] == "split-overlap"
              and e["data"]["how"] != "identical rows"]  # (the content check sees the 48 rows too; the slices decide)
    assert len(events) == 1  # three epochs, one check


def test_two_training_loaders_drawn_in_turn_check_each_pair_once(tmp_path):
    torch.manual_seed(0)
    m = nn.Linear(8, 1)
    o = torch.optim.SGD(m.parameters(), 0.05)
    la, lb = Arrays(X[:200], Y[:200]), Arrays(X[200:400], Y[200:400])
    va = Arrays(X[150:], Y[150:])  # overlaps la's last 50 rows and all of lb
    with traindoc.watch(out=tmp_path / "r", replay=False):
        with torch.no_grad():
            for x, y in DataLoader(va, batch_size=100):
                nn.functional.mse_loss(m(x), y)
        for (xa, ya), (xb, yb) in zip(DataLoader(la, batch_size=20), DataLoader(lb, batch_size=20)):
            loss = nn.functional.mse_loss(m(xa), ya) + nn.functional.mse_loss(m(xb), yb)
            o.zero_grad()
            loss.backward()
            o.step()
    events = [e for e in traindoc.open_run(tmp_path / "r").events() if e["kind"] == "split-overlap"]
    assert len(events) == 2  # one per (training, evaluation) pair, not one per draw


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support")
def test_odd_datasets_are_no_error():
    class Odd(Dataset):
        def __init__(self):
            self.tensors = torch.zeros(3)  # not a tuple
            self.empty = torch.zeros(100, 0)  # every empty tensor has storage pointer 0
            self.csr = torch.eye(4).to_sparse_csr()
            self.objs = np.array([object()] * 4)

        def __getattr__(self, name):
            raise KeyError(name)

        def __len__(self):
            return 100

        def __getitem__(self, i):
            return torch.zeros(1)

    assert shared_rows(Odd(), Odd()) is None
    a, b = Arrays(torch.zeros(100, 0), Y[:100]), Arrays(torch.zeros(400, 0), Y[100:])
    assert shared_rows(a, b) is None
    # a Subset's index list is no rows of data: subsets of two different datasets
    perm = torch.randperm(500)
    assert shared_rows(Subset(TensorDataset(X), perm[:200]), Subset(TensorDataset(Y), perm[:50])) is None
