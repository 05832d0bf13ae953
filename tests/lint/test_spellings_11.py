"""Spellings added in the twelfth pass (December 2026, from the misses of the seventeenth
recall corpus, read after the eighteenth was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from tests.lint.test_catalogue import check

CASES = {
    "running-loss-keeps-graph": [
        # the training loop hands the loss to a reporter of the file that sums it on self
        """
        class Board:
            def __init__(self):
                self.sum, self.n = 0.0, 0
            def log(self, name, value):
                self.sum += value  # !
                self.n += 1
        def fit(model, data, opt, board):
            for x, y in data:
                opt.zero_grad()
                loss = F.mse_loss(model(x), y)
                loss.backward()
                opt.step()
                board.log("mse", loss)
        """,
        # a metric helper computes a loss again from the model output and keeps it in a dict passed in
        """
        class Ppl:
            def __init__(self):
                self.ce = nn.CrossEntropyLoss()
            def gather(self, acc, out, tgt):
                acc.setdefault("h", [])
                acc["h"].append(self.ce(out, tgt))  # !
                return acc
        def fit(model, data, opt, ppl):
            acc = {}
            for x, y in data:
                out = model(x)
                loss = F.cross_entropy(out, y)
                acc = ppl.gather(acc, out, y)
                loss.backward()
                opt.step()
                opt.zero_grad()
        """,
        # negatives: the reporter keeps a number; the helper detaches; only called from evaluation
        """
        class Board:
            def __init__(self):
                self.sum = 0.0
            def log(self, name, value):
                self.sum += value.item()
        def fit(model, data, opt, board):
            for x, y in data:
                loss = F.mse_loss(model(x), y)
                loss.backward()
                opt.step()
                opt.zero_grad()
                board.log("mse", loss)
        """,
        """
        class Ppl:
            def __init__(self):
                self.ce = nn.CrossEntropyLoss()
            def gather(self, acc, out, tgt):
                acc.append(self.ce(out.detach(), tgt))
        def fit(model, data, opt, ppl, acc):
            for x, y in data:
                out = model(x)
                loss = F.cross_entropy(out, y)
                ppl.gather(acc, out, y)
                loss.backward()
                opt.step()
                opt.zero_grad()
        """,
        """
        class Board:
            def __init__(self):
                self.sum = 0.0
            def log(self, value):
                self.sum += value
        def evaluate(model, data, board):
            with torch.no_grad():
                for x, y in data:
                    board.log(F.mse_loss(model(x), y))
        """,
    ],
    "unguarded-zero": [
        # a node degree scattered onto zeros, divided in place by its root
        """
        def propagate(x, src, dst, w, n):
            deg = torch.zeros(n).index_add_(0, dst, w)
            msg = x[src] * w.unsqueeze(-1)
            msg /= deg[dst].sqrt()  # !
            return torch.zeros_like(x).index_add_(0, dst, msg)
        """,
        """
        def propagate(x, src, dst, n):
            deg = torch.zeros(n).scatter_add_(0, dst, torch.ones_like(dst, dtype=torch.float))
            return x[src] / torch.sqrt(deg[dst])  # !
        """,
        # negatives: clamped; added onto a tensor that is not zeros
        """
        def propagate(x, src, dst, w, n):
            deg = torch.zeros(n).index_add_(0, dst, w)
            msg = x[src] * w.unsqueeze(-1)
            msg /= deg[dst].clamp_min(1e-6).sqrt()
            return msg
        """,
        """
        def propagate(x, src, dst, w, n):
            deg = torch.ones(n).index_add_(0, dst, w)
            msg = x[src]
            msg /= deg[dst].sqrt()
            return msg
        """,
    ],
    "train-loader-not-shuffled": [
        # a loader factory named for the training loader, over a store that is not named train
        """
        from torch.utils.data import DataLoader
        class Runner:
            def make_train_loader(self):
                return DataLoader(self.store, batch_size=32)  # !
        """,
        # a dataset class built from the training examples
        """
        from torch.utils.data import DataLoader
        def fit(model, opt, train_pairs):
            loader = DataLoader(PairSet(train_pairs), batch_size=8)  # !
            for x, y in loader:
                pass
        """,
        # shuffle=False said, and the same function trains on the loader
        """
        from torch.utils.data import DataLoader
        def fit(model, opt, train_set):
            train_loader = DataLoader(train_set, batch_size=8,
                                      shuffle=False)  # !
            for x, y in train_loader:
                opt.zero_grad()
                F.mse_loss(model(x), y).backward()
                opt.step()
        """,
        # negatives: a random dataset; shuffle=False for a pass that only measures; a windowed series
        """
        from torch.utils.data import DataLoader
        class Runner:
            def train_dataloader(self):
                return DataLoader(RandomTokenDataset(100), batch_size=8)
        """,
        """
        from torch.utils.data import DataLoader
        def measure(model, train_set):
            train_loader = DataLoader(train_set, batch_size=8, shuffle=False)
            with torch.no_grad():
                return [model(x) for x, y in train_loader]
        """,
        """
        from torch.utils.data import DataLoader
        def fit(model, opt, train_set):
            train_windows = DataLoader(train_set, batch_size=8, shuffle=False)
            for x, y in train_windows:
                opt.zero_grad()
                F.mse_loss(model(x), y).backward()
                opt.step()
        """,
    ],
    "optimizer-misses-params": [
        # a loss with its own weights built next to the model; the optimizer takes the model's only
        """
        class TiedHead(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.extra = nn.Parameter(torch.zeros(2, d))
            def forward(self, h, y):
                return F.cross_entropy(h @ self.extra.t(), y)
        def fit(model, data):
            crit = TiedHead(8)
            both = list(model.parameters()) + list(crit.parameters())
            opt = torch.optim.SGD(model.parameters(), lr=0.1)  # !
            for x, y in data:
                opt.zero_grad()
                crit(model(x), y).backward()
                torch.nn.utils.clip_grad_norm_(both, 1.0)
                opt.step()
        """,
        # a method of the model binds a new parameter after the optimizer exists
        """
        class Scaler(nn.Module):
            def __init__(self):
                super().__init__()
                self.s = nn.Parameter(torch.ones(1))
            def calibrate(self, x):
                self.s = nn.Parameter(x.abs().max().reshape(1))  # !
            def forward(self, x):
                return x * self.s
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.q = Scaler()
                self.fc = nn.Linear(4, 1)
            def forward(self, x):
                return self.fc(self.q(x))
        def fit(model, data, first):
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            model.q.calibrate(first)
            for x, y in data:
                opt.zero_grad()
                F.mse_loss(model(x), y).backward()
                opt.step()
        """,
        # negatives: the optimizer takes the list; the method writes into the existing tensor;
        # the method runs before the optimizer
        """
        class TiedHead(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.extra = nn.Parameter(torch.zeros(2, d))
            def forward(self, h, y):
                return F.cross_entropy(h @ self.extra.t(), y)
        def fit(model, data):
            crit = TiedHead(8)
            both = list(model.parameters()) + list(crit.parameters())
            opt = torch.optim.SGD(both, lr=0.1)
            for x, y in data:
                opt.zero_grad()
                crit(model(x), y).backward()
                opt.step()
        """,
        """
        class Scaler(nn.Module):
            def __init__(self):
                super().__init__()
                self.s = nn.Parameter(torch.ones(1))
            def calibrate(self, x):
                self.s.data.copy_(x.abs().max().reshape(1))
            def forward(self, x):
                return x * self.s
        def fit(model, data, first):
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            model.calibrate(first)
            for x, y in data:
                opt.zero_grad()
                F.mse_loss(model(x), y).backward()
                opt.step()
        """,
        """
        class Scaler(nn.Module):
            def __init__(self):
                super().__init__()
                self.s = nn.Parameter(torch.ones(1))
            def calibrate(self, x):
                self.s = nn.Parameter(x.abs().max().reshape(1))
            def forward(self, x):
                return x * self.s
        def fit(model, data, first):
            model.calibrate(first)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for x, y in data:
                opt.zero_grad()
                F.mse_loss(model(x), y).backward()
                opt.step()
        """,
    ],
    "train-mode-not-restored": [
        # train(), then a helper that switches to eval and never back, then the training loop
        """
        class Fit:
            def __init__(self, model, opt):
                self.model, self.opt = model, opt
                self.drop = nn.Dropout(0.2)
            def warm_start(self, loader):
                self.model.eval()  # !
                with torch.no_grad():
                    self.model(next(iter(loader))[0])
            def fit(self, loader):
                self.model.train()
                self.warm_start(loader)
                for x, y in loader:
                    self.opt.zero_grad()
                    F.mse_loss(self.model(x), y).backward()
                    self.opt.step()
        """,
        # negatives: the helper restores train mode; eval() on purpose in the training function
        """
        class Fit:
            def __init__(self, model, opt):
                self.model, self.opt = model, opt
                self.drop = nn.Dropout(0.2)
            def warm_start(self, loader):
                self.model.eval()
                with torch.no_grad():
                    self.model(next(iter(loader))[0])
                self.model.train()
            def fit(self, loader):
                self.model.train()
                self.warm_start(loader)
                for x, y in loader:
                    self.opt.zero_grad()
                    F.mse_loss(self.model(x), y).backward()
                    self.opt.step()
        """,
        """
        def fit(model, opt, loader):
            drop = nn.Dropout(0.2)
            model.eval()
            for x, y in loader:
                opt.zero_grad()
                F.mse_loss(model(x), y).backward()
                opt.step()
        """,
    ],
}


@pytest.mark.parametrize("rule,src", [(r, dedent(s)) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
