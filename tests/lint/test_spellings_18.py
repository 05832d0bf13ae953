"""Spellings added in the nineteenth pass (December 2026, from the misses of the
twenty-fourth recall corpus, read after the twenty-fifth was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from tests.lint.test_catalogue import check

CASES = {
    "tensor-op-result-discarded": [
        # a batch unpacked by hand from the loader, then moved without assigning
        """
        import torch
        def probe(model, loader, dev):
            feats, labels = next(iter(loader))
            feats.to(dev)  # !
            return model(feats)
        """,
        # near miss: the batch kept whole (a batch object may move in place)
        """
        import torch
        def probe(model, loader, dev):
            batch = next(iter(loader))
            batch.to(dev)
            return model(batch)
        """,
    ],
    "train-loader-not-shuffled": [
        # a loader bound to a training name, over a dataset named otherwise, trained on at once
        """
        import torch
        from torch.utils.data import DataLoader
        class Fitter:
            def fit(self, windows):
                self.samples = windows
                self.train_dl = DataLoader(self.samples, batch_size=32)  # !
                for x, y in self.train_dl:
                    self.opt.zero_grad()
                    self.loss(self.net(x), y).backward()
                    self.opt.step()
        """,
        # near miss: the same loader only evaluated
        """
        import torch
        from torch.utils.data import DataLoader
        class Fitter:
            def score(self, windows):
                self.train_dl = DataLoader(windows, batch_size=32)
                return sum(self.loss(self.net(x), y).item() for x, y in self.train_dl)
        """,
    ],
    "gradients-never-cleared": [
        # Lightning manual optimization: the critic's optimizer is never cleared
        """
        import torch
        import lightning as L
        class WGAN(L.LightningModule):
            def training_step(self, batch, batch_idx):
                gen_opt, critic_opt = self.optimizers()
                fake = self.gen(torch.randn(8, 16))
                gen_opt.zero_grad()
                self.manual_backward(-self.critic(fake).mean())
                gen_opt.step()
                self.manual_backward(self.critic(fake.detach()).mean() - self.critic(batch).mean())
                critic_opt.step()  # !
        """,
        # near miss: both cleared
        """
        import torch
        import lightning as L
        class WGAN(L.LightningModule):
            def training_step(self, batch, batch_idx):
                gen_opt, critic_opt = self.optimizers()
                fake = self.gen(torch.randn(8, 16))
                gen_opt.zero_grad()
                self.manual_backward(-self.critic(fake).mean())
                gen_opt.step()
                critic_opt.zero_grad()
                self.manual_backward(self.critic(fake.detach()).mean() - self.critic(batch).mean())
                critic_opt.step()
        """,
        # near miss: automatic optimization (no manual_backward): Lightning clears
        """
        import torch
        import lightning as L
        class Net(L.LightningModule):
            def training_step(self, batch, batch_idx):
                x, y = batch
                return torch.nn.functional.mse_loss(self.layer(x), y)
        """,
    ],
    "hidden-state-not-detached": [
        # the state comes back under another name and is fed in again
        """
        import torch
        def tbptt(model, opt, loader, crit, k=40):
            for seq, tgt in loader:
                state = None
                for t in range(0, seq.size(1), k):
                    out, next_state = model(seq[:, t:t + k], state)
                    loss = crit(out.flatten(0, 1), tgt[:, t:t + k].flatten())
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                    state = next_state  # !
        """,
        # near miss: detached when carried over
        """
        import torch
        def tbptt(model, opt, loader, crit, k=40):
            for seq, tgt in loader:
                state = None
                for t in range(0, seq.size(1), k):
                    out, next_state = model(seq[:, t:t + k], state)
                    loss = crit(out.flatten(0, 1), tgt[:, t:t + k].flatten())
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                    state = tuple(s.detach() for s in next_state)
        """,
    ],
    "validation-in-train-mode": [
        # an inference method that switches to eval mode itself, but keeps autograd on
        """
        import numpy as np
        import torch
        class Forecaster:
            def predict(self, X):
                self.net.eval()
                out = np.zeros(len(X))
                for i in range(0, len(X), 64):
                    out[i:i + 64] = self.net(torch.as_tensor(X[i:i + 64])).detach().numpy().ravel()  # !
                return out
        """,
        # near miss: the same under no_grad
        """
        import numpy as np
        import torch
        class Forecaster:
            @torch.no_grad()
            def predict(self, X):
                self.net.eval()
                out = np.zeros(len(X))
                for i in range(0, len(X), 64):
                    out[i:i + 64] = self.net(torch.as_tensor(X[i:i + 64])).numpy().ravel()
                return out
        """,
        # near miss: a predict function that never asks for eval mode (not read as inference)
        """
        import torch
        def predict(net, X):
            return [net(x).argmax(-1) for x in X]
        """,
    ],
}


@pytest.mark.parametrize("rule,src", [(r, dedent(s)) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
