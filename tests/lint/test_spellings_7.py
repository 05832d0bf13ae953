"""Spellings added in the eighth pass (December 2026, from the misses of the eleventh recall
corpus, read after the twelfth was commissioned): each case as in test_catalogue.py (a line
ending in `# !` must be reported by the rule and no other line), plus the lines a finding
cites as evidence. Written in new words; near misses included as negatives."""

import json

import pytest

from tests.lint.test_catalogue import H, LOOP, check
from traindoc.lint.engine import lint_paths, lint_source

CASES = {
    "kl-div-mean-reduction": [
        # a loss module built as a method's default argument (evaluated at class creation)
        "class KL(nn.Module):\n    def __init__(self, metric=nn.KLDivLoss(reduction='mean')):  # !\n"
        "        super().__init__()\n        self.metric = metric\n",
        "class KL(nn.Module):\n    def __init__(self, metric=nn.KLDivLoss(reduction='batchmean')):\n"
        "        super().__init__()\n        self.metric = metric\n",
    ],
    "non-leaf-parameter": [
        "def guide(data):\n    w = torch.randn(1, 3, requires_grad=True).type_as(data)  # !\n    return w\n",
        "def guide(data):\n    w = torch.randn(1, 3, requires_grad=True).unsqueeze(0)  # !\n    return w\n",
        "def guide(data):\n    w = torch.randn(1, 3).type_as(data).requires_grad_()\n    return w\n",
    ],
    "torch-load-unsafe": [
        # the file's own checkpoint, but its other loads pass weights_only=True: an oversight
        "def save(d, m, o):\n    torch.save(m.state_dict(), d / 'w.pt')\n    torch.save(o.state_dict(), d / 'o.pt')\n"
        "def resume(d, m, o):\n    m.load_state_dict(torch.load(d / 'w.pt'))  # !\n"
        "    o.load_state_dict(torch.load(d / 'o.pt', weights_only=True))\n",
        # its own checkpoint and no convention in the file: left alone
        "def save(d, m):\n    torch.save(m.state_dict(), d / 'w.pt')\n"
        "def resume(d, m):\n    m.load_state_dict(torch.load(d / 'w.pt'))\n",
    ],
    "loss-shape-broadcast": [
        # the target's shape read through the DataLoader over a TensorDataset that batches it
        "X, y = torch.randn(500, 8), torch.randn(500)\nnet = nn.Linear(8, 1)\n"
        "dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=50)\n"
        "for xb, yb in dl:\n    loss = F.mse_loss(net(xb), yb)  # !\n",
        "from torch.utils.data import DataLoader, TensorDataset\nX, y = torch.randn(500, 8), torch.randn(500)\n"
        "net = nn.Linear(8, 1)\nfor i, (xb, yb) in enumerate(DataLoader(TensorDataset(X, y))):\n"
        "    loss = F.mse_loss(net(xb), yb)  # !\n",
        "X, y = torch.randn(500, 8), torch.randn(500, 1)\nnet = nn.Linear(8, 1)\n"
        "dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=50)\n"
        "for xb, yb in dl:\n    loss = F.mse_loss(net(xb), yb)\n",
    ],
    "train-loader-not-shuffled": [
        # mmdetection's non-distributed branch: **kwargs cannot carry shuffle, since the
        # distributed loader passes them next to a sampler (DataLoader refuses both)
        "from torch.utils.data import DataLoader, DistributedSampler\n"
        "def build(dataset, bs, dist=True, **kwargs):\n    if dist:\n"
        "        sampler = DistributedSampler(dataset, shuffle=True)\n"
        "        return DataLoader(dataset, batch_size=bs, sampler=sampler, **kwargs)\n"
        "    return DataLoader(dataset, batch_size=bs, **kwargs)  # !\n",
        # the other loader does not pass them: they may carry shuffle=True
        "from torch.utils.data import DataLoader, DistributedSampler\n"
        "def build(dataset, bs, dist=True, **kwargs):\n    if dist:\n"
        "        sampler = DistributedSampler(dataset, shuffle=True)\n"
        "        return DataLoader(dataset, batch_size=bs, sampler=sampler)\n"
        "    return DataLoader(dataset, batch_size=bs, **kwargs)\n",
    ],
    "scheduler-before-optimizer": [
        # warm-up epochs train with another optimizer in the other arm: the joint arm steps its
        # scheduler before its own training call
        "def run(model, dl, opt=None):\n    for x, y in dl:\n        loss = F.mse_loss(model(x), y)\n"
        "        if opt is not None:\n            opt.zero_grad()\n            loss.backward()\n            opt.step()\n"
        "warm = torch.optim.Adam(m.parameters())\njoint_opt = torch.optim.Adam(m.parameters())\n"
        "sched = torch.optim.lr_scheduler.StepLR(joint_opt, 5)\nfor epoch in range(20):\n    if epoch < 5:\n"
        "        run(m, dl, opt=warm)\n    else:\n        sched.step()  # !\n        run(m, dl, opt=joint_opt)\n",
        "def run(model, dl, opt=None):\n    for x, y in dl:\n        loss = F.mse_loss(model(x), y)\n"
        "        if opt is not None:\n            opt.zero_grad()\n            loss.backward()\n            opt.step()\n"
        "warm = torch.optim.Adam(m.parameters())\njoint_opt = torch.optim.Adam(m.parameters())\n"
        "sched = torch.optim.lr_scheduler.StepLR(joint_opt, 5)\nfor epoch in range(20):\n    if epoch < 5:\n"
        "        run(m, dl, opt=warm)\n    else:\n        run(m, dl, opt=joint_opt)\n        sched.step()\n",
    ],
    "running-loss-keeps-graph": [
        # LBFGS: optimizer.step(closure) returns the closure's loss, graph included
        "opt = torch.optim.LBFGS(m.parameters())\nlosses = []\ndef closure():\n    opt.zero_grad()\n"
        "    loss = F.mse_loss(m(x), y)\n    loss.backward()\n    return loss\nfor it in range(50):\n"
        "    loss = opt.step(closure)\n    losses.append(loss)  # !\n",
        "opt = torch.optim.LBFGS(m.parameters())\nlosses = []\ndef closure():\n    opt.zero_grad()\n"
        "    loss = F.mse_loss(m(x), y)\n    loss.backward()\n    return loss\nfor it in range(50):\n"
        "    loss = opt.step(closure)\n    losses.append(loss.item())\n",
    ],
    "unscaled-fp16": [
        # a helper nested in a method is not a method: its first parameter is a batch, not self
        # (it was read as the instance, so t.half() of a batch counted as a model's)
        "class Trainer:\n    def __init__(self, model):\n        self.model = model.half()  # !\n"
        "    def prepare(self, *tensors):\n        def _prep(t):\n            t = t.half()\n            return t.cuda()\n"
        "        return [_prep(t) for t in tensors]\n    def fit(self, x, y):\n"
        "        F.mse_loss(self.model(*self.prepare(x)), y).backward()\n",
        "class Trainer:\n    def __init__(self, model):\n        self.model = model\n"
        "    def prepare(self, *tensors):\n        def _prep(t):\n            return t.cuda()\n"
        "        return [_prep(t) for t in tensors]\n    def fit(self, x, y):\n"
        "        F.mse_loss(self.model(*self.prepare(x)), y).backward()\n",
    ],
    "softmax-over-batch-dim": [
        # the layer built on self and applied last in a forward that keeps the rows first
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(784, 10)\n"
        "        self.act = nn.LogSoftmax(dim=0)  # !\n    def forward(self, x):\n"
        "        return self.act(self.fc(x.view(x.size(0), -1)))\n",
        # a policy over one state's actions: dim 0 is the actions
        "class Policy(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 2)\n"
        "        self.act = nn.Softmax(dim=0)\n    def forward(self, s):\n        return self.act(self.fc(s))\n",
    ],
    "state-dict-not-copied": [
        # shallow copies keep the live tensors: .copy(), dict(...), a dict comprehension
        LOOP + "best, best_state = 1e9, None\nfor epoch in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n"
        "        F.mse_loss(model(x), y).backward()\n        opt.step()\n    v = val(model)\n    if v < best:\n"
        "        best = v\n        best_state = model.state_dict().copy()  # !\nmodel.load_state_dict(best_state)\n",
        LOOP + "best, best_state = 1e9, None\nfor epoch in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n"
        "        F.mse_loss(model(x), y).backward()\n        opt.step()\n    v = val(model)\n    if v < best:\n"
        "        best = v\n        best_state = dict(model.state_dict())  # !\nmodel.load_state_dict(best_state)\n",
        LOOP + "best, best_state = 1e9, None\nfor epoch in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n"
        "        F.mse_loss(model(x), y).backward()\n        opt.step()\n    v = val(model)\n    if v < best:\n"
        "        best = v\n        best_state = {k: v for k, v in model.state_dict().items()}  # !\nmodel.load_state_dict(best_state)\n",
        LOOP + "best, best_state = 1e9, None\nfor epoch in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n"
        "        F.mse_loss(model(x), y).backward()\n        opt.step()\n    v = val(model)\n    if v < best:\n"
        "        best = v\n        best_state = {k: v.detach() for k, v in model.state_dict().items()}  # !\nmodel.load_state_dict(best_state)\n",
        LOOP + "best, best_state = 1e9, None\nfor epoch in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n"
        "        F.mse_loss(model(x), y).backward()\n        opt.step()\n    v = val(model)\n    if v < best:\n"
        "        best = v\n        best_state = {k: v.clone() for k, v in model.state_dict().items()}\nmodel.load_state_dict(best_state)\n",
        LOOP + "best, best_state = 1e9, None\nfor epoch in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n"
        "        F.mse_loss(model(x), y).backward()\n        opt.step()\n    v = val(model)\n    if v < best:\n"
        "        best = v\n        best_state = copy.deepcopy(model.state_dict())\nmodel.load_state_dict(best_state)\n",
    ],
    "unguarded-zero": [
        # a hand-written cosine: the product of two norms is 0 when either vector is
        "def cos(a, b):\n    return (a * b).sum(-1) / (a.norm(dim=-1) * b.norm(dim=-1))  # !\n",
        "def cos(a, b):\n    return (a * b).sum(-1) / (a.norm(dim=-1) * b.norm(dim=-1)).clamp_min(1e-8)\n",
    ],
}


@pytest.mark.parametrize("rule,src", [(r, s) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule


def _cited(src: str, rule: str) -> tuple[int, list[int]]:
    """(the finding's line, the other lines it cites) for the one finding of ``rule``."""
    src = H + src
    (f,) = [f for f in lint_source(src, "t.py") if f.name == rule]
    return f.location["line"] - H.count("\n"), [e["line"] - H.count("\n") for e in f.evidence[1:]]


def test_softmax_before_cross_entropy_cites_the_softmax_in_forward():
    src = ("class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.fc = nn.Linear(4, 3)\n        self.act = nn.LogSoftmax(dim=1)\n"
           "    def forward(self, x, h):\n        return self.act(self.fc(x)), h\n"
           "net = Net()\nfor x, y in dl:\n    pred, h = net(x, None)\n    loss = F.cross_entropy(pred, y)\n")
    assert _cited(src, "softmax-before-cross-entropy") == (11, [7])
    msg = next(f.message for f in lint_source(H + src, "t.py") if f.name == "softmax-before-cross-entropy")
    assert f"(line {7 + H.count(chr(10))})" in msg
    # two returns of different softmaxes: no single line to cite, the finding stands alone
    src2 = ("def head(x, log):\n    if log:\n        return F.softmax(x, -1)\n    return torch.softmax(x, 1)\n"
            "loss = F.cross_entropy(head(x, True), y)\n")
    assert _cited(src2, "softmax-before-cross-entropy") == (5, [])


def test_gradients_never_cleared_cites_the_backward_and_unshifted_softmax_the_exp():
    src = LOOP + "for x, y in dl:\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n    opt.step()\n"
    assert _cited(src, "gradients-never-cleared") == (6, [5])
    src = "def sm(x):\n    e = torch.exp(x)\n    s = e.sum(dim=1, keepdim=True)\n    return e / s\n"
    assert _cited(src, "unshifted-softmax") == (2, [4])  # at the exp to shift, citing the division


def test_a_cited_line_in_a_notebook_names_its_own_cell(tmp_path):
    p = tmp_path / "nb.ipynb"
    cells = ["import torch\nimport torch.nn.functional as F\n", "def sm(x):\n    e = torch.exp(x)\n",
             "    return e / e.sum(dim=1, keepdim=True)\n"]
    p.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None} for c in cells]}))
    (f,) = [f for f in lint_paths([str(p)]).findings if f.name == "unshifted-softmax"]
    assert (f.location["cell"], f.location["line"]) == (2, 2)
    assert [(e["cell"], e["line"]) for e in f.evidence] == [(2, 2), (3, 1)]
