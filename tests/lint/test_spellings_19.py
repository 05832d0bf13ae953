"""Spellings added in the twentieth pass (December 2026, from the misses of the
twenty-fifth recall corpus, read after the twenty-sixth was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from tests.lint.test_catalogue import check

CASES = {
    "train-mode-not-restored": [
        # a trainer class whose training method puts the model it was handed in eval mode
        """
        import torch
        import torch.nn as nn
        class Scorer(nn.Module):
            def __init__(self):
                super().__init__()
                self.drop = nn.Dropout(0.2)
                self.out = nn.Linear(16, 1)
            def forward(self, x):
                return self.out(self.drop(x))
        class Runner:
            def __init__(self, net, opt, loader):
                self.net, self.opt, self.loader = net, opt, loader
            def _epoch(self):
                self.net.eval()  # !
                for x, y in self.loader:
                    loss = ((self.net(x) - y) ** 2).mean()
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()
            def _check(self):
                self.net.eval()
                with torch.no_grad():
                    return sum(self.net(x).sum() for x, _ in self.loader)
            def run(self, epochs):
                for _ in range(epochs):
                    self._epoch()
                    self._check()
        scorer = Scorer()
        Runner(scorer, torch.optim.SGD(scorer.parameters(), 0.1), []).run(3)
        """,
        # near miss: the training method sets train mode itself
        """
        import torch
        import torch.nn as nn
        class Scorer(nn.Module):
            def __init__(self):
                super().__init__()
                self.drop = nn.Dropout(0.2)
                self.out = nn.Linear(16, 1)
            def forward(self, x):
                return self.out(self.drop(x))
        class Runner:
            def __init__(self, net, opt, loader):
                self.net, self.opt, self.loader = net, opt, loader
            def _epoch(self):
                self.net.train()
                for x, y in self.loader:
                    loss = ((self.net(x) - y) ** 2).mean()
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()
            def _check(self):
                self.net.eval()
                with torch.no_grad():
                    return sum(self.net(x).sum() for x, _ in self.loader)
            def run(self, epochs):
                for _ in range(epochs):
                    self._epoch()
                    self._check()
        scorer = Scorer()
        Runner(scorer, torch.optim.SGD(scorer.parameters(), 0.1), []).run(3)
        """,
    ],
    "unshifted-softmax": [
        # the exp on its own line, reassigned to the same name: the finding is at the exp
        """
        import torch
        def channel_probs(x, eps=1e-9):
            x = torch.exp(x)  # !
            return x / (torch.sum(x, dim=-1, keepdim=True) + eps)
        """,
        # near miss: shifted by the row max first
        """
        import torch
        def channel_probs(x, eps=1e-9):
            x = torch.exp(x - x.amax(dim=-1, keepdim=True))
            return x / (torch.sum(x, dim=-1, keepdim=True) + eps)
        """,
    ],
}


@pytest.mark.parametrize("rule,src", [(r, dedent(s)) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule


def test_branch_only_clear_cites_the_backward_on_the_uncleared_path():
    from tests.lint.test_spellings_7 import _cited
    src = ("import torch\nfor x, y in dl:\n    loss = model(x).sum()\n    if amp:\n        opt.zero_grad()\n"
           "        scaler.scale(loss).backward()\n        scaler.step(opt)\n        scaler.update()\n"
           "    else:\n        loss.backward()\n        opt.step()\n")
    assert _cited(src, "gradients-never-cleared") == (5, [11, 10])
