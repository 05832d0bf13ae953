"""Spellings added in the seventh pass (December 2026, from the misses of the tenth recall
corpus, read after the eleventh was commissioned and scored once): each case as in
test_catalogue.py, a line ending in `# !` must be reported by the rule and no other line.
Written in new words; near misses included as negatives."""

import pytest

from tests.lint.test_catalogue import LOOP, check

CASES = {
    "grad-cleared-before-step": [
        # accumulation undone: cleared on every iteration, stepped only every k
        LOOP + "for i, (x, y) in enumerate(dl):\n    opt.zero_grad()  # !\n    (F.mse_loss(model(x), y) / 4).backward()\n"
               "    if (i + 1) % 4 == 0:\n        opt.step()\n",
        # ... on every call of a per-batch method
        LOOP + "class Learner:\n    def __init__(self):\n        self.n = 0\n    def update(self, x, y):\n"
               "        opt.zero_grad()  # !\n        F.mse_loss(model(x), y).backward()\n        self.n += 1\n"
               "        if self.n % 8 == 0:\n            opt.step()\n",
        # the clear under its own gate (ignite's update) and the usual accumulation: fine
        LOOP + "def update(it, x, y, k):\n    if (it - 1) % k == 0:\n        opt.zero_grad()\n"
               "    (F.mse_loss(model(x), y) / k).backward()\n    if it % k == 0:\n        opt.step()\n",
        LOOP + "for i, (x, y) in enumerate(dl):\n    (F.mse_loss(model(x), y) / 4).backward()\n"
               "    if (i + 1) % 4 == 0:\n        opt.step()\n        opt.zero_grad()\n",
        # a WGAN: the critic cleared every iteration, the generator stepped every fifth
        "D = nn.Linear(4, 1)\nG = nn.Linear(2, 4)\nopt_d = torch.optim.Adam(D.parameters())\n"
        "opt_g = torch.optim.Adam(G.parameters())\nfor i, x in enumerate(dl):\n    opt_d.zero_grad()\n"
        "    (D(G(torch.randn(8, 2)).detach()) - D(x)).mean().backward()\n    opt_d.step()\n    if i % 5 == 0:\n"
        "        opt_g.zero_grad()\n        (-D(G(torch.randn(8, 2)))).mean().backward()\n        opt_g.step()\n",
    ],
    "backward-inside-autocast": [
        # a context chosen once and bound to a name (nanoGPT / llm.c style)
        LOOP + "ctx = torch.autocast('cuda', dtype=torch.bfloat16) if amp else nullcontext()\n"
               "for x, y in dl:\n    with ctx:\n        loss = F.mse_loss(model(x), y)\n        loss.backward()  # !\n"
               "    opt.step()\n",
        LOOP + "ctx = torch.autocast('cuda', dtype=torch.bfloat16) if amp else nullcontext()\n"
               "for x, y in dl:\n    with ctx:\n        loss = F.mse_loss(model(x), y)\n    loss.backward()\n"
               "    opt.step()\n",
        LOOP + "ctx = nullcontext()\nfor x, y in dl:\n    with ctx:\n        loss = F.mse_loss(model(x), y)\n"
               "        loss.backward()\n    opt.step()\n",
    ],
    "softmax-over-batch-dim": [
        "def predict(model, x):\n    return torch.softmax(model(x), dim=0).argmax(dim=1)  # !\n",
        "def predict(model, x):\n    return torch.softmax(model(x), dim=1).argmax(dim=1)\n",
        "def predict(model, x):\n    return torch.softmax(model(x), dim=0).argmax()\n",
    ],
    "fully-masked-softmax": [
        # scores shifted before the softmax: a row of -inf stays one
        "def attend(s, keep):\n    s = s.masked_fill(keep == 0, -np.inf)\n"
        "    return (s - s.max()).softmax(dim=-1)  # !\n",
        # a causal mask kept as a buffer, and one compared by positions: the diagonal stays visible
        "class A(nn.Module):\n    def __init__(self, n):\n        super().__init__()\n"
        "        self.register_buffer('mask', torch.triu(torch.ones(n, n), diagonal=1))\n"
        "    def forward(self, s):\n        m = self.mask.bool()[:s.size(-1), :s.size(-1)]\n"
        "        s.masked_fill_(m, -torch.inf)\n        return torch.softmax(s / 8, dim=-1)\n",
        "def attend(s, q_pos, k_pos):\n    mask = q_pos.unsqueeze(-1) < k_pos.unsqueeze(0)\n"
        "    s = s.masked_fill(mask, -torch.inf)\n    return torch.softmax(s / 8, dim=-1)\n",
        # a causal mask built by the model and passed in
        "class Block(nn.Module):\n    def forward(self, s, mask):\n        s = s.masked_fill(mask, -torch.inf)\n"
        "        return torch.softmax(s / 8, dim=-1)\n"
        "class Model(nn.Module):\n    def forward(self, s):\n        mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)\n"
        "        return self.block(s, mask)\n",
        # a padding mask from lengths is not causal
        "def pool(e, lengths):\n    pad = torch.arange(e.size(1))[None, :] >= lengths[:, None]\n"
        "    e = e.masked_fill(pad, float('-inf'))\n    return F.softmax(e, dim=-1)  # !\n",
    ],
    "tensor-op-result-discarded": [
        # methods only a tensor has
        "def attend(sim, future):\n    sim.masked_fill(future, -1e9)  # !\n    return sim.softmax(-1)\n",
        "def keep(out, store):\n    logits = out['logits']\n    logits.detach()  # !\n    logits.cpu()  # !\n"
        "    store.append(logits)\n",
        # in place, assigned, ignite's Metric.detach(engine), a stream's detach
        "def attend(sim, future):\n    sim.masked_fill_(future, -1e9)\n    return sim.softmax(-1)\n",
        "def keep(metric, engine):\n    metric.detach(engine)\n",
        "import sys\ndef raw():\n    sys.stdout.detach()\n",
        "def gpu(model):\n    model.cpu()\n",
    ],
    "running-loss-keeps-graph": [
        # a sibling returned with the loss by the file's loss function is one of its terms
        LOOP + "def losses(out, y):\n    a = F.mse_loss(out, y)\n    b = out.abs().mean()\n    return a + 0.1 * b, a, b\n"
               "run_a = 0.0\nfor x, y in dl:\n    loss, a, b = losses(model(x), y)\n    opt.zero_grad()\n"
               "    loss.backward()\n    opt.step()\n    run_a += a  # !\n",
        LOOP + "def losses(out, y):\n    a = F.mse_loss(out, y)\n    b = out.abs().mean()\n    return a + 0.1 * b, a, b\n"
               "run_a = 0.0\nfor x, y in dl:\n    loss, a, b = losses(model(x), y)\n    opt.zero_grad()\n"
               "    loss.backward()\n    opt.step()\n    run_a += a.item()\n",
    ],
    "optimizer-misses-params": [
        # a loss with learned weights kept on a trainer, never given to the optimizer
        "class UncertaintyLoss(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.s = nn.Parameter(torch.zeros(2))\n"
        "    def forward(self, a, b):\n        return torch.exp(-self.s[0]) * a + torch.exp(-self.s[1]) * b + self.s.sum()\n"
        "class Trainer:\n    def __init__(self, model):\n        self.model = model\n"
        "        self.opt = torch.optim.Adam(model.parameters())\n        self.loss = UncertaintyLoss()  # !\n"
        "    def step(self, x, y):\n        out = self.model(x)\n        loss = self.loss(F.mse_loss(out, y), out.abs().mean())\n"
        "        self.opt.zero_grad()\n        loss.backward()\n        self.opt.step()\n",
        # ... given to it, or passed on to code that may
        "class UncertaintyLoss(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.s = nn.Parameter(torch.zeros(2))\n"
        "    def forward(self, a, b):\n        return torch.exp(-self.s[0]) * a + torch.exp(-self.s[1]) * b + self.s.sum()\n"
        "class Trainer:\n    def __init__(self, model):\n        self.model = model\n        self.loss = UncertaintyLoss()\n"
        "        self.opt = torch.optim.Adam(list(model.parameters()) + list(self.loss.parameters()))\n"
        "    def step(self, x, y):\n        out = self.model(x)\n        loss = self.loss(F.mse_loss(out, y), out.abs().mean())\n"
        "        self.opt.zero_grad()\n        loss.backward()\n        self.opt.step()\n",
        "class UncertaintyLoss(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.s = nn.Parameter(torch.zeros(2))\n"
        "    def forward(self, a, b):\n        return torch.exp(-self.s[0]) * a + torch.exp(-self.s[1]) * b + self.s.sum()\n"
        "class Trainer:\n    def __init__(self, model):\n        self.model = model\n        self.loss = UncertaintyLoss()\n"
        "        self.opt = build_optimizer(model, self.loss)\n        self.ref = torch.optim.Adam(model.parameters())\n"
        "    def step(self, x, y):\n        out = self.model(x)\n        loss = self.loss(F.mse_loss(out, y), out.abs().mean())\n"
        "        self.opt.zero_grad()\n        loss.backward()\n        self.opt.step()\n",
    ],
    "train-loader-not-shuffled": [
        # the training split picked by key in a Lightning datamodule's train_dataloader
        "from torch.utils.data import DataLoader\nclass DM:\n    def train_dataloader(self):\n        return DataLoader(self.splits['train'], batch_size=32)  # !\n"
        "    def val_dataloader(self):\n        return DataLoader(self.splits['validation'], batch_size=64)\n",
        # the same split feeding an initialisation pass, not training
        "from torch.utils.data import DataLoader\nloader = DataLoader(ds['train'], batch_size=8)\ninit_from_activations(model, loader)\n",
    ],
}


@pytest.mark.parametrize("rule,src", [(r, s) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
