"""Spellings added in the third pass (December 2026, after the third recall corpus was
scored): each case as in test_catalogue.py, a line ending in `# !` must be reported by the
rule and no other line. Written in new words; near misses included as negatives."""

import pytest

from tests.lint.test_catalogue import LOOP, LOOPD, check

CASES = {
    "validation-in-train-mode": [
        # the finding sits on the forward pass that runs in train mode, not on the loop
        LOOPD + "def evaluate(dl):\n    with torch.no_grad():\n        for x, y in dl:\n"
                "            out = model(x)  # !\n            print(out.sum())\n",
        # a seq2seq model evaluated through generate()
        "from transformers import AutoModel\nmodel = AutoModel.from_pretrained('m')\n"
        "def validate(batches):\n    with torch.no_grad():\n        for b in batches:\n"
        "            ids = model.generate(b)  # !\n            print(ids)\n",
        # eval() and then train() again before the loop: train mode wins
        LOOPD + "def run_eval(dl):\n    model.eval()\n    with torch.no_grad():\n        model.train()\n"
                "        for x, y in dl:\n            pred = model(x).argmax(-1)  # !\n            print(pred)\n",
        # negatives: eval() after train() (the usual epoch order), generate() in eval mode
        LOOPD + "def fit(dl, val_dl):\n    for ep in range(3):\n        model.train()\n        for x, y in dl:\n"
                "            opt.zero_grad()\n            F.cross_entropy(model(x), y).backward()\n            opt.step()\n"
                "        model.eval()\n        with torch.no_grad():\n            for x, y in val_dl:\n"
                "                print(model(x).sum())\n",
        "from transformers import AutoModel\nmodel = AutoModel.from_pretrained('m')\n"
        "def validate(batches):\n    model.eval()\n    with torch.no_grad():\n        for b in batches:\n"
        "            print(model.generate(b))\n",
    ],
    "running-loss-keeps-graph": [
        # backward of one entry of a dict of losses; the other entries summed as tensors
        LOOP + "sums = {'all': 0.0, 'rec': 0.0}\nfor x, y in dl:\n    parts = {'rec': F.mse_loss(model(x), y)}\n"
               "    parts['all'] = parts['rec'] * 2\n    opt.zero_grad()\n    parts['all'].backward()\n    opt.step()\n"
               "    for k in sums:\n        sums[k] += parts[k]  # !\n",
        # an averaging meter fed the loss tensor
        LOOP + "class Avg:\n    def __init__(self):\n        self.total, self.n = 0.0, 0\n"
               "    def update(self, v, n=1):\n        self.total += v * n\n        self.n += n\n"
               "tracker = Avg()\nfor x, y in dl:\n    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n"
               "    loss.backward()\n    opt.step()\n    tracker.update(loss, x.size(0))  # !\n",
        LOOP + "for x, y in dl:\n    a = F.mse_loss(model(x), y)\n    b = model(x).abs().mean()\n    loss = a + b\n"
               "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n    loss_meter.update([a, b])  # !\n",
        # negatives: numbers into the meter; a dict's update() that only stores the last step;
        # a torchmetrics-style metric updated with predictions
        LOOP + "for x, y in dl:\n    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n    loss.backward()\n"
               "    opt.step()\n    loss_meter.update(loss.item(), x.size(0))\n",
        LOOP + "logs = {}\nfor x, y in dl:\n    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n"
               "    loss.backward()\n    opt.step()\n    logs.update(loss=loss)\n",
        LOOP + "for x, y in dl:\n    out = model(x)\n    loss = F.mse_loss(out, y)\n    opt.zero_grad()\n"
               "    loss.backward()\n    opt.step()\n    metric.update(out, y)\n",
    ],
    "loss-shape-broadcast": [
        # the loss inside a helper; every call passes a squeezed prediction and a (N, 1) target
        "def reg_loss(p, t):\n    return F.mse_loss(p, t)  # !\n"
        "def fit(net, dl, opt):\n    for x, y in dl:\n        y = y.view(-1, 1)\n        out = net(x).squeeze(-1)\n"
        "        loss = reg_loss(out, y)\n        opt.zero_grad()\n        loss.backward()\n        opt.step()\n",
        # negatives: both sides made (N,); a helper called with shapes that differ between calls
        "def reg_loss(p, t):\n    return F.mse_loss(p, t)\n"
        "def fit(net, dl, opt):\n    for x, y in dl:\n        out = net(x).squeeze(-1)\n"
        "        loss = reg_loss(out, y.view(-1))\n        loss.backward()\n        opt.step()\n        opt.zero_grad()\n",
        "def reg_loss(p, t):\n    return F.l1_loss(p, t)\n"
        "def fit(net, dl):\n    for x, y in dl:\n        reg_loss(net(x).squeeze(-1), y)\n        reg_loss(net(x), y.view(-1, 1))\n",
    ],
}


@pytest.mark.parametrize("rule,src", [(r, s) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
