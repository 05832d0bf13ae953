"""Label-conflict for EmbeddingBag-style inputs (flat tokens and per-sample offsets, the
torchtext text-classification convention; bench/real 257, IBM/nlc-email-phishing#26: every
email in the training set twice, once tagged "phishing" and once with its real class).
The monitor fingerprints each bag as a multiset of its tokens."""

import torch
from hypothesis import given, settings, strategies as st
from torch import nn
import torch.nn.functional as F

import traindoc
from traindoc.monitor.conflicts import _bag, _bag_hash


class Bag(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(200, 16, mode="mean")
        self.head = nn.Linear(16, 3)

    def forward(self, tokens, offsets):
        return self.head(self.bag(tokens, offsets))


def _train(tmp_path, twice):
    g = torch.Generator().manual_seed(0)
    texts = [torch.randint(0, 200, (int(torch.randint(5, 30, (1,), generator=g)),), generator=g) for _ in range(600)]
    labels = torch.randint(1, 3, (600,), generator=g)
    rows = [(t, int(y)) for t, y in zip(texts, labels)]
    if twice:
        rows = [r for t, y in rows for r in ((t, 0), (t, y))]
    torch.manual_seed(0)
    model = Bag()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(3):
            for idx in torch.randperm(len(rows), generator=g).split(32):
                batch = [rows[i] for i in idx]
                tokens = torch.cat([t for t, _ in batch])
                offsets = torch.tensor([0] + [len(t) for t, _ in batch[:-1]]).cumsum(0)
                loss = F.cross_entropy(model(tokens, offsets), torch.tensor([y for _, y in batch]))
                opt.zero_grad()
                loss.backward()
                opt.step()
    return [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "label-conflict"]


def test_each_text_under_two_labels(tmp_path):
    (c,) = _train(tmp_path, twice=True)
    assert "groups of identical training inputs carry different labels" in c.message


def test_each_text_once(tmp_path):
    assert _train(tmp_path, twice=False) == []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 2**31 - 1), min_size=1, max_size=12), min_size=2, max_size=8), st.randoms())
def test_a_bag_is_a_multiset(bags, rnd):
    def flat(bs):
        return torch.tensor([t for b in bs for t in b]), torch.tensor([0] + [len(b) for b in bs[:-1]]).cumsum(0)

    h = _bag_hash(*flat(bags))
    shuffled = [rnd.sample(b, len(b)) for b in bags]
    assert torch.equal(h, _bag_hash(*flat(shuffled)))  # the order within a bag does not matter
    for i, b in enumerate(bags):
        for j, c in enumerate(bags):
            if sorted(b) != sorted(c):
                assert not torch.equal(h[:, i], h[:, j])  # different bags, different fingerprints
    assert _bag(list(flat(bags))) == (len(bags) < sum(map(len, bags)))


def test_lengths_are_not_offsets():
    # model(tokens, lengths): the second tensor does not start at 0: every row its own value
    tokens = torch.tensor([5, 6, 7, 8, 9, 10])
    h = _bag_hash(tokens, torch.tensor([2, 3, 1]), salt=100)
    assert torch.equal(h[0], torch.tensor([100.0, 101.0, 102.0], dtype=torch.float64))
