"""Spellings added in the twenty-second pass (December 2026, from the misses of the
twenty-seventh recall corpus, read after the twenty-eighth was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from tests.lint.test_catalogue import check

CASES = {
    "unshifted-logsumexp": [
        # log(1 + sum(exp(.))) of a multi-similarity loss
        """
        import torch
        def ms_term(sims, w, base):
            return torch.log(1 + torch.sum(torch.exp(w * (sims - base))))  # !
        """,
        # a product of two sums of exponentials (circle loss) under the same log
        """
        import torch
        def circle(lp, ln):
            a = torch.exp(lp).sum()
            b = torch.exp(ln).sum()
            return torch.log(1 + a * b)  # !
        """,
        # the shifted form (max subtracted) is safe
        """
        import torch
        def ms_term(sims, w, base):
            z = w * (sims - base)
            return torch.log(1 + torch.sum(torch.exp(z - z.max())))
        """,
        # a product with something that is not an exponential is not a softplus
        """
        import torch
        def weighted(lp, scale):
            return torch.log(1 + torch.exp(lp).sum() * scale)
        """,
    ],
    "validation-in-train-mode": [
        # the model comes from elsewhere (its dropout out of sight), the file puts it in train
        # mode and never in eval mode: the evaluation runs with dropout on
        """
        import torch
        def accuracy(phi, loader):
            hit = 0
            with torch.no_grad():
                for x, y in loader:
                    hit += (phi(x).argmax(1) == y).sum().item()  # !
            return hit
        def fit(phi, opt, train_loader, test_loader):
            for epoch in range(3):
                phi.train()
                for x, y in train_loader:
                    opt.zero_grad()
                    torch.nn.functional.cross_entropy(phi(x), y).backward()
                    opt.step()
                print(accuracy(phi, test_loader))
        """,
        # the same file with phi.eval() in the evaluation: fine
        """
        import torch
        def accuracy(phi, loader):
            phi.eval()
            hit = 0
            with torch.no_grad():
                for x, y in loader:
                    hit += (phi(x).argmax(1) == y).sum().item()
            return hit
        def fit(phi, opt, train_loader, test_loader):
            for epoch in range(3):
                phi.train()
                for x, y in train_loader:
                    opt.zero_grad()
                    torch.nn.functional.cross_entropy(phi(x), y).backward()
                    opt.step()
                print(accuracy(phi, test_loader))
        """,
        # a Hugging Face trainer's train() is not a module switched to train mode
        """
        import torch
        def evaluate(model, val_loader):
            with torch.no_grad():
                return sum(model(x).sum().item() for x in val_loader)
        def main(trainer, model, val_loader):
            trainer.train()
            for x in val_loader:
                with torch.no_grad():
                    print(model(x))
        """,
    ],
    "state-dict-not-copied": [
        # a snapshot before training compared entry by entry after it (a PEFT test's check)
        """
        import torch
        def adapters_moved(net, opt, x, y):
            before = net.state_dict()  # !
            for _ in range(3):
                opt.zero_grad()
                torch.nn.functional.mse_loss(net(x), y).backward()
                opt.step()
            after = net.state_dict()
            return [k for k in after if not torch.equal(before[k], after[k])]
        """,
        # the deep copy is a snapshot
        """
        import copy
        import torch
        def adapters_moved(net, opt, x, y):
            before = copy.deepcopy(net.state_dict())
            for _ in range(3):
                opt.zero_grad()
                torch.nn.functional.mse_loss(net(x), y).backward()
                opt.step()
            after = net.state_dict()
            return [k for k in after if not torch.equal(before[k], after[k])]
        """,
    ],
    "softmax-over-batch-dim": [
        # the model's output on a loader's batch, through a name, normalised over dim 0
        """
        import torch
        import torch.nn.functional as F
        def run(net, opt, train_loader):
            for data, target in train_loader:
                opt.zero_grad()
                output = net(data)
                loss = F.nll_loss(F.log_softmax(output, dim=0), target)  # !
                loss.backward()
                opt.step()
        """,
        # over dim 1: right
        """
        import torch
        import torch.nn.functional as F
        def run(net, opt, train_loader):
            for data, target in train_loader:
                opt.zero_grad()
                output = net(data)
                loss = F.nll_loss(F.log_softmax(output, dim=1), target)
                loss.backward()
                opt.step()
        """,
    ],
    "tensor-op-result-discarded": [
        # a loss's class weights moved as a statement under torch.is_tensor
        """
        import torch
        class Focal(torch.nn.Module):
            def __init__(self, alpha=None):
                super().__init__()
                self.alpha = alpha
            def forward(self, logits, target):
                w = torch.ones_like(target, dtype=logits.dtype)
                if torch.is_tensor(self.alpha):
                    self.alpha.to(logits.device)  # !
                    w = self.alpha.gather(0, target)
                return (w * torch.nn.functional.cross_entropy(logits, target, reduction="none")).mean()
        """,
        # assigned back: fine
        """
        import torch
        class Focal(torch.nn.Module):
            def __init__(self, alpha=None):
                super().__init__()
                self.alpha = alpha
            def forward(self, logits, target):
                w = torch.ones_like(target, dtype=logits.dtype)
                if torch.is_tensor(self.alpha):
                    self.alpha = self.alpha.to(logits.device)
                    w = self.alpha.gather(0, target)
                return (w * torch.nn.functional.cross_entropy(logits, target, reduction="none")).mean()
        """,
    ],
    "one-hot-target": [
        # NYU-DLSP20's sequence classifier: the one-hot target is argmaxed into itself before the
        # loss, which then gets class indices: nothing to report
        """
        import torch
        def train(model, gen, criterion, optimizer):
            for i in range(len(gen)):
                data, target = gen[i]
                data, target = torch.from_numpy(data).float(), torch.from_numpy(target).long()
                output = model(data)[:, -1, :]
                target = target.argmax(dim=1)
                loss = criterion(output, target)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        """,
        # the argmax kept under another name: the loss still gets the one-hot rows
        """
        import torch
        import torch.nn.functional as F
        def step(model, optimizer, data, onehot):
            cls = torch.argmax(onehot, dim=1)
            logits = model(data)
            loss = F.cross_entropy(logits, onehot)  # !
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            return (logits.argmax(1) == cls).float().mean()
        """,
    ],
}


@pytest.mark.parametrize("rule,src", [(r, dedent(s)) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
