"""Spellings added in the eighteenth pass (December 2026, from the misses of the
twenty-third recall corpus, read after the twenty-fourth was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from tests.lint.test_catalogue import check

CASES = {
    "loss-arguments-swapped": [
        # the contrastive labels of InfoNCE (an arange) passed first
        """
        import torch
        import torch.nn.functional as F
        def info_nce(q, k, tau):
            sims = q @ k.t() / tau
            targets = torch.arange(q.shape[0], device=q.device)
            return F.cross_entropy(targets, sims)  # !
        """,
        # predictions made by argmax, then passed first
        """
        import torch.nn.functional as F
        def step(scores, gold):
            guess = scores.argmax(dim=-1)
            return F.nll_loss(guess.long(), scores)  # !
        """,
        # near miss: the right order
        """
        import torch
        import torch.nn.functional as F
        def info_nce(q, k, tau):
            sims = q @ k.t() / tau
            targets = torch.arange(q.shape[0], device=q.device).repeat(2)
            return F.cross_entropy(sims, targets)
        """,
        # near miss: an arange cast to the scores' dtype, or to a float dtype, is not indices
        """
        import torch
        import torch.nn.functional as F
        def toy(scores, lab):
            ramp = torch.arange(10).to(scores)
            other = torch.arange(10).to(torch.float32)
            return F.cross_entropy(ramp, lab) + F.cross_entropy(other, lab)
        """,
        # near miss: an arange made as floats is not indices (a regression-like toy)
        """
        import torch
        import torch.nn.functional as F
        def toy(lab):
            ramp = torch.arange(10, dtype=torch.float32)
            return F.cross_entropy(ramp, lab)
        """,
    ],
    "validation-in-train-mode": [
        # the validation loop runs the model through a loss helper of the class, without no_grad
        """
        import torch
        class Fitter:
            def __init__(self, model, loader, val_loader):
                self.model, self.loader, self.val_loader = model, loader, val_loader
            def _losses(self, batch):
                return self.criterion(self.model(batch.x), batch.y)
            def validate(self):
                self.model.eval()
                total = 0.0
                for batch in self.val_loader:
                    total += self._losses(batch).item()  # !
                return total
        """,
        # near miss: the same helper under no_grad
        """
        import torch
        class Fitter:
            def _losses(self, batch):
                return self.criterion(self.model(batch.x), batch.y)
            @torch.no_grad()
            def validate(self):
                self.model.eval()
                total = 0.0
                for batch in self.val_loader:
                    total += self._losses(batch).item()
                return total
        """,
        # an evaluation function that switches the model to train mode (no dropout in sight)
        """
        import torch
        def evaluate_epoch(net, test_loader):
            net.train()  # !
            hits = 0
            with torch.no_grad():
                for pts, lab in test_loader:
                    hits += (net(pts).argmax(-1) == lab).sum().item()
            return hits
        """,
        # near miss: Monte-Carlo dropout, train mode on purpose (the model sampled per batch)
        """
        import torch
        def predict_uncertainty(net, test_loader, n=20):
            net.train()
            means = []
            with torch.no_grad():
                for x, _ in test_loader:
                    means.append(torch.stack([net(x) for _ in range(n)]).mean(0))
            return means
        """,
        # near miss: the same function with eval()
        """
        import torch
        def evaluate_epoch(net, test_loader):
            net.eval()
            hits = 0
            with torch.no_grad():
                for pts, lab in test_loader:
                    hits += (net(pts).argmax(-1) == lab).sum().item()
            return hits
        """,
    ],
}


@pytest.mark.parametrize("rule,src", [(r, dedent(s)) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
