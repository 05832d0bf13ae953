"""A character language model's targets are its input shifted by one: the monitor records it
(``targets/next_token``) and class-imbalance's long tail (rare letters) says nothing there
(makemore on names.txt got a 40 % warning for its rare letters). A tagger over the same
long-tailed classes, whose targets are not its input shifted, still gets the warning."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc

V, T = 27, 12


def _letters(n, g):
    """Zipf-like letters 1..26: a few frequent, several under 1 % (as in names)."""
    p = 1.0 / torch.arange(1, V).float() ** 1.6
    return torch.multinomial(p / p.sum(), n, replacement=True, generator=g) + 1


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.out = nn.Linear(16, V)

    def forward(self, idx, targets=None):
        logits = self.out(torch.tanh(self.emb(idx)))
        if targets is None:
            return logits
        return logits, F.cross_entropy(logits.view(-1, V), targets.view(-1), ignore_index=-1)


def _train(tmp_path, batch):
    torch.manual_seed(0)
    model = Tiny()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for step in range(150):
            x, y = batch(step)
            _, loss = model(x, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    return run, [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "class-imbalance"]


def test_a_character_lm_with_padded_targets_is_not_class_imbalance(tmp_path):
    g = torch.Generator().manual_seed(1)

    def batch(step):
        # names: a start token 0, letters, then padding; the targets end with 0 and pad with -1
        x = torch.zeros(32, T, dtype=torch.long)
        y = torch.full((32, T), -1, dtype=torch.long)
        for r in range(32):
            n = int(torch.randint(3, T - 2, (1,), generator=g))
            w = _letters(n, g)
            x[r, 1:n + 1] = w
            y[r, :n] = w
            y[r, n] = 0
        return x, y

    run, found = _train(tmp_path, batch)
    assert run.meta.get("targets/next_token", {}).get("share") == 1.0
    assert found == []


def test_a_tagger_over_long_tailed_classes_still_is(tmp_path):
    g = torch.Generator().manual_seed(2)

    def batch(step):
        y = _letters(32 * T, g).reshape(32, T)
        x = (y * 7 + 3) % V  # a token per tag, not the tag sequence shifted
        return x, y

    run, found = _train(tmp_path, batch)
    assert "targets/next_token" not in run.meta
    assert found and found[0].severity == "warning" and "classes are under 1 %" in found[0].message
