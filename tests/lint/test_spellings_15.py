"""Spellings added in the sixteenth pass (December 2026, from the misses of the twenty-first
recall corpus, read after the twenty-second was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from tests.lint.test_catalogue import check

CASES = {
    "train-loader-not-shuffled": [
        # PyG's loader: DataLoader's signature and its shuffle=False default
        """
        from torch_geometric.loader import DataLoader as GraphLoader
        train_graphs = dataset[2000:]
        train_loader = GraphLoader(train_graphs, batch_size=128)  # !
        """,
        # near miss: shuffled, and a validation split
        """
        from torch_geometric.loader import DataLoader as GraphLoader
        train_loader = GraphLoader(dataset[2000:], batch_size=128, shuffle=True)
        val_loader = GraphLoader(dataset[:2000], batch_size=128)
        """,
        # a rollout buffer in collection order, trained on by the same method
        """
        from torch.utils.data import DataLoader
        class Learner:
            def update(self):
                loader = DataLoader(self.rollout_buffer, batch_size=32)  # !
                for batch in loader:
                    loss = self.loss(batch)
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()
        """,
        # near miss: shuffled; and a buffer only read (no training loop over it here)
        """
        from torch.utils.data import DataLoader
        class Learner:
            def update(self):
                loader = DataLoader(self.rollout_buffer, batch_size=32, shuffle=True)
                for batch in loader:
                    self.loss(batch).backward()
                    self.opt.step()
            def stats(self):
                loader = DataLoader(self.rollout_buffer, batch_size=256)
                return [b["reward"].mean() for b in loader]
        """,
    ],
    "optimizer-misses-params": [
        # a memory bank's keys kept as a plain tensor: model.parameters() never yields it
        """
        class Memory(nn.Module):
            def __init__(self, slots, dim):
                super().__init__()
                self.enc = nn.Linear(dim, dim)
                self.keys = torch.randn(slots, dim)  # !
            def forward(self, x):
                return torch.softmax(self.enc(x) @ self.keys.t(), dim=1)
        model = Memory(16, 8)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        """,
        # near miss: a Parameter, a buffer, and a fixed latent handed to the model (an input)
        """
        class Memory(nn.Module):
            def __init__(self, slots, dim):
                super().__init__()
                self.keys = nn.Parameter(torch.randn(slots, dim))
                self.register_buffer("proj", torch.randn(dim, dim))
                self.fixed_z = torch.randn(8, dim)
            def forward(self, x):
                return (x @ self.proj) @ self.keys.t()
            def sample(self):
                return self(self.fixed_z)
        model = Memory(16, 8)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        """,
    ],
    "unguarded-zero": [
        # a gradient magnitude by hand from names unpacked out of a tensor
        """
        def edges(img, kernel):
            g = F.conv2d(img, kernel, padding=1)
            dx, dy = g[:, 0], g[:, 1]
            return torch.sqrt(dx * dx + dy * dy)  # !
        """,
        # near miss: an epsilon inside; and squares of plain names (scalars that may be constants)
        """
        def edges(img, kernel, s, t):
            g = F.conv2d(img, kernel, padding=1)
            dx, dy = g[:, 0], g[:, 1]
            return torch.sqrt(dx * dx + dy * dy + 1e-6), torch.sqrt(s * s + t * t)
        """,
    ],
}


@pytest.mark.parametrize("rule,src", [(r, dedent(s)) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
