"""label-conflict when the loop calls two top-level modules, ``head(encoder(x))`` (bench/real
368: an EmbeddingBag and an MLP in a ModuleDict): the rows fingerprinted are the encoder's
inputs (token ids), not the head's (the encoder's output, new at every step as it trains)."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


def _run(tmp_path, conflict: bool):
    g = torch.Generator().manual_seed(0)
    y = torch.randint(0, 4, (600,), generator=g)
    ids = torch.randint(40, 60, (600, 6), generator=g)
    ids[:, :3] = y[:, None] * 10 + torch.randint(0, 10, (600, 3), generator=g)  # three keywords of the class
    if conflict:  # a third of the rows again, each under the next class
        ids = torch.cat([ids, ids[:200]])
        y = torch.cat([y, (y[:200] + 1) % 4])
    torch.manual_seed(0)
    enc, head = nn.EmbeddingBag(60, 16), nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.Adam([*enc.parameters(), *head.parameters()], 5e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for epoch in range(6):
            order = torch.randperm(len(ids), generator=g)
            for i in range(0, len(ids), 50):
                b = order[i:i + 50]
                loss = F.cross_entropy(head(enc(ids[b])), y[b])
                opt.zero_grad()
                loss.backward()
                opt.step()
    return traindoc.diagnose(tmp_path / "r").causes


def test_conflicting_copies_fed_through_an_encoder_are_label_conflict(tmp_path):
    causes = _run(tmp_path, conflict=True)
    assert causes and causes[0].name == "label-conflict", [(c.name, c.message) for c in causes]
    # every one of the 200 copied rows is found (the head's inputs, new at each step, matched
    # only pairs that happened to share a batch: 95 of them)
    assert causes[0].message.startswith("200 groups"), causes[0].message


def test_the_same_loop_without_copies_is_not(tmp_path):
    assert "label-conflict" not in [c.name for c in _run(tmp_path, conflict=False)]


def test_a_two_tower_pair_model_is_not(tmp_path):
    # enc(a), enc(b), head(cat): the same b item with other partners and other labels is no
    # conflict: the head's input is skipped and neither tower's rows alone are paired with the
    # labels (a guard for the two-tower loop as a whole: here other gates keep it quiet too)
    g = torch.Generator().manual_seed(1)
    items = torch.randint(0, 40, (60, 5), generator=g)
    a, b = torch.randint(0, 60, (900,), generator=g), torch.randint(0, 60, (900,), generator=g)
    y = ((a + b) % 3)
    torch.manual_seed(0)
    enc, head = nn.EmbeddingBag(40, 16), nn.Linear(32, 3)
    opt = torch.optim.Adam([*enc.parameters(), *head.parameters()], 5e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for i in range(0, 900, 30):
            za, zb = enc(items[a[i:i + 30]]), enc(items[b[i:i + 30]])
            loss = F.cross_entropy(head(torch.cat([za, zb], 1)), y[i:i + 30])
            opt.zero_grad()
            loss.backward()
            opt.step()
    assert "label-conflict" not in [c.name for c in traindoc.diagnose(tmp_path / "r").causes]
