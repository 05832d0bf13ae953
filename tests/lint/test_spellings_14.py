"""Spellings added in the fifteenth pass (December 2026, from the misses of the twentieth
recall corpus, read after the twenty-first was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from tests.lint.test_catalogue import check

CASES = {
    "softmax-without-dim": [
        # torch's function (not F's) requires dim
        """
        def scores(z):
            return torch.log_softmax(z)  # !
        """,
        # near miss: with dim, positional or named
        """
        def scores(z):
            return torch.softmax(z, 1), torch.log_softmax(z, dim=-1)
        """,
    ],
    "tensor-op-result-discarded": [
        # a dict of inputs, each entry tested as a tensor, moved and dropped
        """
        def to_device(feats, dev):
            for key in list(feats):
                if isinstance(feats[key], torch.Tensor):
                    feats[key].cuda()  # !
            return feats
        """,
        # near miss: the test is on the dict, not on the entry; and an entry assigned back
        """
        def to_device(feats, dev):
            for key in list(feats):
                if isinstance(feats, torch.Tensor):
                    feats[key].cuda()
                if isinstance(feats[key], torch.Tensor):
                    feats[key] = feats[key].cuda()
            return feats
        """,
    ],
    "unguarded-zero": [
        # min-max scaling with the extremes bound to names first
        """
        def rescale(w):
            lo = torch.amin(w)
            hi = torch.amax(w)
            return (w - lo) / (hi - lo)  # !
        """,
        # near misses: Python's and NumPy's extremes, an image scaled for a plot
        """
        import numpy as np
        import matplotlib.pyplot as plt

        def rescale(xs, img):
            a = [(v - min(xs)) / (max(xs) - min(xs)) for v in xs]
            b = (img - np.min(img)) / (np.max(img) - np.min(img))
            return a, b

        def show(t):
            plt.imshow((t - t.min()) / (t.max() - t.min()))
        """,
        # near misses: an epsilon in the range, a clamp on it, a range that is not max - min
        """
        def rescale(w):
            a = (w - w.min()) / (w.max() - w.min() + 1e-6)
            b = (w - w.min()) / (w.max() - w.min()).clamp_min(1e-6)
            c = (w - 2) / (w.max() - 2)
            return a, b, c
        """,
    ],
    "accumulation-not-averaged": [
        # a per-batch method, its modulo on the batch index the caller passes in
        """
        class Runner:
            def __init__(self, net, opt, accum):
                self.net, self.opt, self.accum = net, opt, accum

            def on_batch(self, xb, yb, idx):
                out = F.cross_entropy(self.net(xb), yb)
                out.backward()  # !
                if (idx + 1) % self.accum == 0:
                    self.opt.step()
                    self.opt.zero_grad()
        """,
        # near miss: the step method is handed a loss its caller divided
        """
        class Runner:
            def __init__(self, net, opt, accum):
                self.net, self.opt, self.accum = net, opt, accum

            def _apply(self, out, idx):
                out.backward()
                if (idx + 1) % self.accum == 0:
                    self.opt.step()
                    self.opt.zero_grad()

            def epoch(self, dl):
                for idx, (xb, yb) in enumerate(dl):
                    self._apply(F.cross_entropy(self.net(xb), yb) / self.accum, idx)
        """,
        # near miss: the loss divided by the same count
        """
        class Runner:
            def __init__(self, net, opt, accum):
                self.net, self.opt, self.accum = net, opt, accum

            def on_batch(self, xb, yb, idx):
                out = F.cross_entropy(self.net(xb), yb) / self.accum
                out.backward()
                if (idx + 1) % self.accum == 0:
                    self.opt.step()
                    self.opt.zero_grad()
        """,
    ],
    "train-mode-not-restored": [
        # the model comes from the caller (the file only defines its loss as a Module), and the
        # loop runs it through a helper method; validation mid-epoch never restores train mode
        """
        class MarginLoss(nn.Module):
            def forward(self, a, b):
                return F.relu(1 - a + b).mean()

        class Fitter:
            def __init__(self, net, opt, dl, vdl):
                self.net, self.opt, self.dl, self.vdl = net, opt, dl, vdl
                self.crit = MarginLoss()

            def pair(self, a, b):
                return self.net(a), self.net(b)

            def fit(self):
                for ep in range(3):
                    self.net.train()
                    for i, (a, b) in enumerate(self.dl):
                        sa, sb = self.pair(a, b)
                        self.crit(sa, sb).backward()
                        self.opt.step()
                        self.opt.zero_grad()
                        if i % 100 == 0:
                            self.check()

            def check(self):
                self.net.eval()  # !
                with torch.no_grad():
                    for a, b in self.vdl:
                        self.pair(a, b)
        """,
        # near miss: the model is built in the file from layers without dropout or batch norm
        """
        class MarginLoss(nn.Module):
            def forward(self, a, b):
                return F.relu(1 - a + b).mean()

        net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
        opt = torch.optim.SGD(net.parameters(), lr=0.1)

        def check():
            net.eval()

        for ep in range(3):
            net.train()
            for i, (a, b) in enumerate(dl):
                MarginLoss()(net(a), net(b)).backward()
                opt.step()
                opt.zero_grad()
                if i % 100 == 0:
                    check()
        """,
    ],
    "softmax-over-batch-dim": [
        # soft targets times log-probabilities normalised over the batch, summed per sample
        """
        def distill(student_logits, teacher_probs):
            logp = F.log_softmax(student_logits, dim=0)  # !
            return -(teacher_probs * logp).sum(1).mean()
        """,
        # near miss: a softmax (attention weights) times values summed over dim 1
        """
        def pool(scores, values):
            w = F.softmax(scores, dim=0)
            return torch.sum(values * w, dim=1)
        """,
    ],
    "validation-in-train-mode": [
        # an agent's acting pass under no_grad, its network put in train mode by the update
        # and never in eval mode
        """
        class Agent:
            def __init__(self, policy, opt):
                self.policy, self.opt = policy, opt
                self.drop = nn.Dropout(0.1)

            def act(self, obs):
                with torch.no_grad():
                    return self.policy(obs).argmax(-1)  # !

            def update(self, obs, target):
                self.policy.train()
                loss = F.mse_loss(self.policy(obs), target)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
        """,
        # near miss: the acting pass puts it in eval mode first
        """
        class Agent:
            def __init__(self, policy, opt):
                self.policy, self.opt = policy, opt
                self.drop = nn.Dropout(0.1)

            def act(self, obs):
                self.policy.eval()
                with torch.no_grad():
                    return self.policy(obs).argmax(-1)

            def update(self, obs, target):
                self.policy.train()
                loss = F.mse_loss(self.policy(obs), target)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
        """,
    ],
}


@pytest.mark.parametrize("rule,src", [(r, dedent(s)) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
