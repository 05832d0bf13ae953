"""Spellings added in the twenty-first pass (December 2026, from the misses of the
twenty-sixth recall corpus, read after the twenty-seventh was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from tests.lint.test_catalogue import check

CASES = {
    "running-loss-keeps-graph": [
        # the loss kept per step in a dict made before the loop (caikit-nlp's fix)
        """
        import torch
        def fit(net, opt, batches):
            by_step = {}
            for i, (x, y) in enumerate(batches):
                loss = ((net(x) - y) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                by_step[i] = loss  # !
            return by_step
        """,
        # a dict made inside the loop dies with the iteration: not kept
        """
        import torch
        def fit(net, opt, batches, log):
            for i, (x, y) in enumerate(batches):
                loss = ((net(x) - y) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                row = {}
                row["loss"] = loss
                log(row)
        """,
        # per-environment losses summed while autograd.grad backpropagates each (DomainBed's fix)
        """
        import torch
        from torch import autograd
        def update(net, opt, envs):
            total = 0
            grads = []
            for x, y in envs:
                env_loss = torch.nn.functional.cross_entropy(net(x), y)
                total += env_loss  # !
                grads.append(autograd.grad(env_loss, list(net.parameters()), retain_graph=True))
            opt.zero_grad()
            for p, *gs in zip(net.parameters(), *grads):
                p.grad = torch.stack(gs).mean(0)
            opt.step()
            return total.item()
        """,
        # a gradient penalty: autograd.grad with create_graph is part of the loss, not a backward
        """
        import torch
        from torch import autograd
        def penalty(disc, batches):
            total = 0
            for real in batches:
                out = disc(real.requires_grad_())
                g = autograd.grad(out.sum(), real, create_graph=True)[0]
                gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
                total += gp
            return total
        """,
    ],
    "log-of-softmax": [
        # binary cross-entropy written out: the true label's probability picked with where
        """
        import torch
        def bce(z, t):
            p = z.sigmoid()
            return -torch.where(t == 1, p, 1 - p).log().mean()  # !
        """,
        # clamped first: finite
        """
        import torch
        def bce(z, t):
            p = torch.sigmoid(z).clamp(1e-6, 1 - 1e-6)
            return -torch.where(t == 1, p, 1 - p).log().mean()
        """,
    ],
    "validation-in-train-mode": [
        # two modules trained together; the test puts only the first in eval mode (OGB's fix)
        """
        import torch
        import torch.nn as nn
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.drop = nn.Dropout(0.3)
                self.lin = nn.Linear(8, 1)
            def forward(self, a, b):
                return self.lin(self.drop(a * b))
        def train(enc, head, opt, pairs):
            enc.train()
            head.train()
            for a, b, y in pairs:
                loss = ((head(enc(a), enc(b)) - y) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
        @torch.no_grad()
        def test(enc, head, pairs):
            enc.eval()
            h = [(enc(a), enc(b)) for a, b, _ in pairs]
            return [head(x, z) for x, z in h]  # !
        """,
        # both put in eval mode (one of them in a helper): nothing to say
        """
        import torch
        import torch.nn as nn
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.drop = nn.Dropout(0.3)
                self.lin = nn.Linear(8, 1)
            def forward(self, a, b):
                return self.lin(self.drop(a * b))
        def train(enc, head, opt, pairs):
            enc.train()
            head.train()
            for a, b, y in pairs:
                loss = ((head(enc(a), enc(b)) - y) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
        def freeze(head):
            head.eval()
        @torch.no_grad()
        def test(enc, head, pairs):
            enc.eval()
            freeze(head)
            h = [(enc(a), enc(b)) for a, b, _ in pairs]
            return [head(x, z) for x, z in h]
        """,
    ],
    "optimizer-misses-params": [
        # adapter layers added after the optimizer took the model's parameters (adapter-hub #260)
        """
        import torch
        def build(model, name):
            opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
            model.add_adapter(name)  # !
            model.train_adapter(name)
            return opt
        """,
        # the vocabulary grown first, the optimizer after: complete
        """
        import torch
        def build(model, n_tokens):
            model.resize_token_embeddings(n_tokens)
            return torch.optim.AdamW(model.parameters(), lr=1e-4)
        """,
    ],
    "one-hot-target": [
        # the dataset stores one-hot rows: the accuracy argmaxes them, the loss takes them as indices
        """
        import torch
        import torch.nn as nn
        def fit(net, opt, train_dl, val_dl):
            ce = nn.CrossEntropyLoss()
            for xb, yb in train_dl:
                loss = ce(net(xb), yb)  # !
                opt.zero_grad()
                loss.backward()
                opt.step()
            with torch.no_grad():
                return sum((net(xb).argmax(1) == yb.argmax(dim=1)).sum().item() for xb, yb in val_dl)
        """,
        # mixup: soft targets on purpose, argmaxed for the accuracy only
        """
        import torch
        import torch.nn as nn
        def fit(net, opt, train_dl, mixup):
            ce = nn.CrossEntropyLoss()
            hits = 0
            for xb, yb in train_dl:
                xb, yb = mixup(xb, yb)
                out = net(xb)
                loss = ce(out, yb)
                opt.zero_grad()
                loss.backward()
                opt.step()
                hits += (out.argmax(1) == yb.argmax(dim=1)).sum().item()
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
