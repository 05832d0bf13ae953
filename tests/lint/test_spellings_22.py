"""Spellings added in the twenty-third pass (December 2026, from the misses of the
twenty-eighth recall corpus, read after the twenty-ninth was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from traindoc.lint import lint_source
from tests.lint.test_catalogue import check

CASES = {
    "sigmoid-before-bce": [
        # the loss module's forward gets the probabilities through a parameter of the epoch
        # function, which every call fills with an instance of that loss class
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class ProbLoss(nn.Module):
            def forward(self, p, t):
                return F.binary_cross_entropy(p.squeeze(-1), t)  # !
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 1)
            def forward(self, h):
                return torch.sigmoid(self.fc(h))
        def epoch(head, crit, opt, batches):
            for h, t in batches:
                loss = crit(head(h), t)
                opt.zero_grad()
                loss.backward()
                opt.step()
        head = Head()
        epoch(head, ProbLoss(), torch.optim.SGD(head.parameters(), lr=0.1), [])
        """,
        # the same with a head that returns logits: nothing to report
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class ProbLoss(nn.Module):
            def forward(self, p, t):
                return F.binary_cross_entropy(p.squeeze(-1), t)
        def epoch(head, crit, opt, batches):
            for h, t in batches:
                loss = crit(head(h), t)
                loss.backward()
        epoch(nn.Linear(8, 1), ProbLoss(), None, [])
        """,
    ],
    "loss-shape-broadcast": [
        # targets built 1-D in a data function that returns a tuple, a (N, 1) Linear output
        """
        import torch
        import torch.nn as nn
        def synth(n=64):
            a = torch.randn((n, 3))
            b = 2 + 3 * a[:, 0] - a[:, 2] + torch.randn(n)
            return a, b
        def fit(a, b):
            lin = nn.Linear(3, 1)
            crit = nn.MSELoss()
            out = lin(a)
            return crit(out, b)  # !
        feats, tgt = synth()
        fit(feats, tgt)
        """,
        # the model comes back from a factory (moved with .to()) and is passed to the step
        """
        import torch
        import torch.nn as nn
        xs = torch.randn(6, 1, 4, 4)
        ys = torch.tensor([0, 1, 0, 1, 1, 0]).float()
        def build():
            net = nn.Sequential(nn.Flatten(), nn.Linear(16, 1)).to("cpu")
            return net, nn.BCEWithLogitsLoss()
        def step(x, y, net, crit):
            return crit(net(x), y)  # !
        net, crit = build()
        for i in range(6):
            step(xs[i:i + 1], ys[i:i + 1], net, crit)
        """,
        # squeezed: the shapes agree
        """
        import torch
        import torch.nn as nn
        def synth(n=64):
            a = torch.randn((n, 3))
            return a, 2 * a[:, 0] + torch.randn(n)
        def fit(a, b):
            lin = nn.Linear(3, 1)
            return nn.MSELoss()(lin(a).squeeze(-1), b)
        feats, tgt = synth()
        fit(feats, tgt)
        """,
    ],
    "softmax-before-cross-entropy": [
        # a notebook: a demo cell leaves `pred` (log-probabilities) at top level; a loss class
        # the file never calls takes its own `pred` (logits): not the demo's tensor
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        y_pred = torch.randn(4, 3)
        pred = F.log_softmax(y_pred, dim=1)
        print(F.nll_loss(pred, torch.tensor([0, 1, 2, 0])))
        class SymmetricCE(nn.Module):
            def __init__(self):
                super().__init__()
                self.ce = nn.CrossEntropyLoss()
            def forward(self, pred, labels):
                return self.ce(pred, labels) + F.softmax(pred, dim=1).mean()
        """,
        # the loss class's input is a log_softmax in its own forward: reported
        """
        import torch.nn as nn
        import torch.nn.functional as F
        class Twice(nn.Module):
            def __init__(self):
                super().__init__()
                self.ce = nn.CrossEntropyLoss()
            def forward(self, logits, labels):
                pred = F.log_softmax(logits, dim=1)
                return self.ce(pred, labels)  # !
        """,
    ],
    "optimizer-misses-params": [
        # a notebook's second model bound to the same name: its own optimizer rides on it
        """
        import torch
        import torch.nn as nn
        model = nn.Linear(2, 1)
        model.optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(2, 1)
            @property
            def optimizer(self):
                return torch.optim.Adam(self.parameters())
        model = Net()
        model.optimizer.step()
        """,
        # the optimizer under a name of its own stays with the first model
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(2, 1)
        model = Net()
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        model = Net()  # !
        opt.step()
        """,
    ],
    "validation-in-train-mode": [
        # one closure for both phases: the module is put in train mode before the branch, the
        # validation branch runs it under no_grad without eval()
        """
        import torch
        import torch.nn as nn
        class Wrap(nn.Module):
            def __init__(self):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4))
            def forward(self, x, y):
                return ((self.net(x) - y) ** 2).mean()
        def make(lr):
            wrapper = Wrap()
            opt = torch.optim.SGD(wrapper.parameters(), lr=lr)
            def run(phase, x, y):
                wrapper.train()
                if phase == "train":
                    loss = wrapper(x, y)
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                else:
                    with torch.no_grad():
                        loss = wrapper(x, y)  # !
                return loss.item()
            return run
        """,
        # the switch follows the phase: nothing to report
        """
        import torch
        import torch.nn as nn
        def make(wrapper, opt):
            drop = nn.Dropout(0.1)
            def run(phase, x, y):
                wrapper.train(phase == "train")
                if phase == "train":
                    loss = wrapper(x, y)
                    loss.backward()
                    opt.step()
                else:
                    with torch.no_grad():
                        loss = wrapper(x, y)
                return loss.item()
            return run
        """,
        # a wrapper class puts its model in train mode and never in eval mode (no dropout in
        # sight: the model is built elsewhere); its evaluate() helper runs it under no_grad
        """
        import torch
        class Wrapper:
            def __init__(self, model, opt, loss_fn):
                self.model, self.opt, self.loss_fn = model, opt, loss_fn
            def _scores(self, x, y):
                with torch.no_grad():
                    out = self.model(x)  # !
                    return float(self.loss_fn(out, y))
            def train_on_batch(self, x, y):
                self.model.train()
                self.opt.zero_grad()
                loss = self.loss_fn(self.model(x), y)
                loss.backward()
                self.opt.step()
            def evaluate(self, x, y):
                return self._scores(x, y)
        """,
        # the same shape where the no_grad method acts for the agent (NoisyNet exploration is
        # meant to run in train mode) or feeds the training step: nothing to report
        """
        import torch
        class Agent:
            def __init__(self, net, opt):
                self.net, self.opt = net, opt
                self.net.train()
            def act(self, state):
                with torch.no_grad():
                    return self.net(state).argmax(1).item()
            def forward_batch(self, x):
                with torch.no_grad():
                    return self.net(x).sum()
            def learn(self, x):
                loss = self.forward_batch(x)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
        """,
        # eval() inside the validation branch: nothing to report
        """
        import torch
        import torch.nn as nn
        def make(wrapper, opt):
            drop = nn.Dropout(0.1)
            def run(phase, x, y):
                wrapper.train()
                if phase == "train":
                    wrapper(x, y).backward()
                    opt.step()
                else:
                    wrapper.eval()
                    with torch.no_grad():
                        loss = wrapper(x, y)
                    return loss.item()
            return run
        """,
    ],
}


@pytest.mark.parametrize("rule,src", [(r, dedent(s)) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule


def test_masked_fill_line_is_cited():
    """fully-masked-softmax points at the softmax and cites the -inf fill the fix changes."""
    src = dedent("""
        import torch
        import torch.nn.functional as F
        def attend(scores, pad):
            scores = scores.masked_fill(pad, float("-inf"))
            return F.softmax(scores, dim=-1)
        """)
    f = next(f for f in lint_source(src, "t.py") if f.name == "fully-masked-softmax")
    assert f.location["line"] == 6 and [e["line"] for e in f.evidence] == [6, 5]
