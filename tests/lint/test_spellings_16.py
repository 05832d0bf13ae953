"""Spellings added in the seventeenth pass (December 2026, from the misses of the
twenty-second recall corpus, read after the twenty-third was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from tests.lint.test_catalogue import check

CASES = {
    "grad-cleared-before-step": [
        # the accumulation gate spelt in two lines: a flag set from a modulo, then `if flag:`
        """
        class Learner:
            def train_batch(self, batch):
                self.micro += 1
                do_update = self.micro % self.accum_steps == 0
                self.opt.zero_grad()  # !
                (self.loss(batch) / self.accum_steps).backward()
                if do_update:
                    self.opt.step()
        """,
        # near miss: the same flag gates the clear, after the step
        """
        class Learner:
            def train_batch(self, batch):
                self.micro += 1
                do_update = self.micro % self.accum_steps == 0
                (self.loss(batch) / self.accum_steps).backward()
                if do_update:
                    self.opt.step()
                    self.opt.zero_grad()
        """,
        # the clear shares the step's gate but runs before the backward
        """
        for batch in loader:
            loss = criterion(model(batch.x), batch.y) / accum
            if state.should_update(step):
                opt.zero_grad()  # !
            loss.backward()
            if state.should_update(step):
                opt.step()
            step += 1
        """,
        # near miss: a flag that does not change per iteration gates both
        """
        for x, y in loader:
            if update_encoder:
                enc_opt.zero_grad()
            criterion(model(x), y).backward()
            if update_encoder:
                enc_opt.step()
        """,
        # near misses: a train flag around both (an ordinary clear, backward, step); and a
        # clear gated on the window's first micro-batch (a different test: ignite's spelling)
        """
        def run_epoch(model, loader, opt, train):
            for x, y in loader:
                if train:
                    opt.zero_grad()
                loss = criterion(model(x), y)
                if train:
                    loss.backward()
                    opt.step()
        for it, (x, y) in enumerate(loader):
            if it % accum == 0:
                opt.zero_grad()
            (criterion(model(x), y) / accum).backward()
            if (it + 1) % accum == 0:
                opt.step()
        """,
    ],
    "softmax-over-batch-dim": [
        # a graph network's output: one row per node, normalised over the nodes
        """
        import torch.nn.functional as F
        from torch import nn
        from torch_geometric.nn import GATConv
        class NodeNet(nn.Module):
            def __init__(self, d, c):
                super().__init__()
                self.g1, self.g2 = GATConv(d, 8, heads=4), GATConv(32, c)
            def forward(self, x, edge_index):
                x = F.elu(self.g1(x, edge_index))
                return F.log_softmax(self.g2(x, edge_index), dim=0)  # !
        """,
        # near miss: one score per node, squeezed: a distribution over the nodes (a policy
        # that picks a node) is what dim 0 means here
        """
        import torch.nn.functional as F
        from torch import nn
        from torch_geometric.nn import GCNConv
        class NodePicker(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.g1, self.score = GCNConv(d, 16), GCNConv(16, 1)
            def forward(self, x, edge_index):
                s = self.score(F.relu(self.g1(x, edge_index)), edge_index).squeeze(-1)
                return F.softmax(s, dim=0)
        """,
    ],
    "scheduler-before-optimizer": [
        # the epoch passed by keyword
        """
        for epoch in range(epochs):
            for x, y in loader:
                self.sched.step(epoch=epoch)  # !
                opt.zero_grad()
                criterion(model(x), y).backward()
                opt.step()
        """,
        # near miss: the same call after the optimizer's step
        """
        for epoch in range(epochs):
            for x, y in loader:
                opt.zero_grad()
                criterion(model(x), y).backward()
                opt.step()
                self.sched.step(epoch=epoch)
        """,
    ],
    "tensor-op-result-discarded": [
        # an entry of a tokenizer's tensors, moved and dropped
        """
        enc = tokenizer(texts, padding=True, return_tensors="pt")
        for key in enc:
            enc[key].to(device)  # !
        out = model(**enc)
        """,
        # near miss: the encoding's own .to() moves its entries in place; numpy output
        """
        enc = tokenizer(texts, padding=True, return_tensors="pt")
        enc.to(device)
        arrays = tokenizer(texts, return_tensors="np")
        for key in arrays:
            arrays[key].astype("int32")
        """,
    ],
    "validation-in-train-mode": [
        # the validation data wrapped in a progress bar set once, then iterated
        """
        import torch
        from torch import nn
        net = nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.2), nn.Linear(8, 2))
        def fit(net, train_loader, val_loader):
            net.train()  # the last mode switch before the loop: the line flagged  # !
            for x, y in train_loader:
                step(net, x, y)
            bar = tqdm(val_loader, desc="val")
            with torch.no_grad():
                for x, y in bar:
                    out = net(x)
        """,
        # near miss: the same with net.eval() before the loop
        """
        import torch
        from torch import nn
        net = nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.2), nn.Linear(8, 2))
        def fit(net, train_loader, val_loader):
            net.train()
            for x, y in train_loader:
                step(net, x, y)
            bar = tqdm(val_loader, desc="val")
            net.eval()
            with torch.no_grad():
                for x, y in bar:
                    out = net(x)
        """,
    ],
}


@pytest.mark.parametrize("rule,src", [(r, dedent(s)) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
