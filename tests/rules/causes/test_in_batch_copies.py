"""data-duplicates from copies met inside one batch (bench/real 306: a crawl export that
kept every revisit of 40 pages, trained for less than an epoch; 307: a full batch where 150
compounds come 61 times each), against rows drawn with replacement or by weight on purpose."""

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

import traindoc


def _model(d, k):
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, k))


def _dupes(tmp_path):
    return [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "data-duplicates"]


def _copied(n=600, copied=20, times=150, seed=0):
    g = torch.Generator().manual_seed(seed)
    X, y = torch.randn(n, 12, generator=g), torch.randint(0, 4, (n,), generator=g)
    rows = torch.cat([torch.arange(n), torch.arange(copied).repeat(times)])
    return X[rows], y[rows]


def test_copies_within_batches_of_less_than_an_epoch(tmp_path):
    X, y = _copied()  # 3 600 rows, 620 distinct inputs; 150 steps of 16 never finish an epoch
    model = _model(12, 4)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        perm = torch.randperm(len(X))
        for i in range(0, 150 * 16, 16):
            idx = perm[i:i + 16]
            loss = F.cross_entropy(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    (c,) = _dupes(tmp_path)
    assert c.severity == "warning" and "in the same batch" in c.message


def test_copies_in_a_full_batch(tmp_path):
    X, y = _copied(n=800, copied=40, times=30)
    model = _model(12, 4)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(20):
            loss = F.cross_entropy(model(X), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    (c,) = _dupes(tmp_path)
    assert "in the same batch" in c.message


def test_weighted_oversampling_and_distinct_rows_are_not(tmp_path):
    g = torch.Generator().manual_seed(0)
    X, y = torch.randn(3000, 12, generator=g), (torch.rand(3000, generator=g) < 0.01).long()
    w = torch.where(y == 1, 50.0, 1.0)  # the rare class drawn ~50x as often: copies by design
    loader = DataLoader(TensorDataset(X, y), batch_size=64,
                        sampler=WeightedRandomSampler(w, num_samples=3000, generator=g))
    model = _model(12, 2)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path / "a" / "r", replay=False):
        for xb, yb in loader:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    assert _dupes(tmp_path / "a") == []
    model = _model(12, 2)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path / "b" / "r", replay=False):
        for _ in range(20):  # a full batch of distinct rows
            loss = F.cross_entropy(model(X), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    assert _dupes(tmp_path / "b") == []


def test_token_ids_repeat_by_nature(tmp_path):
    # skip-gram style: one centre-word id a row, common words many times in a batch
    g = torch.Generator().manual_seed(0)
    zipf = 1.0 / torch.arange(1, 501).float()
    ids = torch.multinomial(zipf, 6000, replacement=True, generator=g)
    ctx = torch.multinomial(zipf, 6000, replacement=True, generator=g)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Embedding(500, 16), nn.Linear(16, 500))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        perm = torch.randperm(len(ids))
        for i in range(0, 4000, 128):
            idx = perm[i:i + 128]
            loss = F.cross_entropy(model(ids[idx]), ctx[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    assert _dupes(tmp_path) == []
