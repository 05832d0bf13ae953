"""Spellings added in the ninth pass (December 2026, from the misses of the twelfth and
thirteenth recall corpora, each read after the next one was commissioned): each case as in test_catalogue.py (a
line ending in `# !` must be reported by the rule and no other line). Written in new words;
near misses included as negatives."""

import pytest

from tests.lint.test_catalogue import check

EPOCH = ("def run_epoch(net, loader, opt=None):\n    training = opt is not None\n    net.train(training)\n"
         "    for x, y in loader:\n        out = net(x)  # !\n        loss = F.cross_entropy(out, y)\n"
         "        if training:\n            opt.zero_grad()\n            loss.backward()\n            opt.step()\n"
         "net = nn.Sequential(nn.Linear(4, 2), nn.Dropout(0.1))\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
         "run_epoch(net, train_loader, opt)\nrun_epoch(net, val_loader)\n")

CASES = {
    "validation-in-train-mode": [
        # one epoch function for both phases, backward and step only when training
        EPOCH,
        EPOCH.replace("    for x, y in loader:\n", "    with torch.set_grad_enabled(training):\n"
                      "     for x, y in loader:\n").replace("  # !", ""),
        EPOCH.replace("run_epoch(net, val_loader)\n", "with torch.no_grad():\n    run_epoch(net, val_loader)\n")
        .replace("  # !", ""),
        # only ever called to train: no validation pass to speak of
        EPOCH.replace("run_epoch(net, val_loader)\n", "").replace("  # !", ""),
        # a GAN-style network name (netG) run in a validation loop without no_grad
        "class T:\n    def __init__(self, netG):\n        self.netG = netG\n"
        "    def validate(self, val_ds):\n        self.netG.eval()\n        for x, y in val_ds:\n"
        "            out = self.netG(x)  # !\n            print((out - y).abs().mean().item())\n",
        "class T:\n    def __init__(self, netG):\n        self.netG = netG\n"
        "    @torch.no_grad()\n    def validate(self, val_ds):\n        self.netG.eval()\n        for x, y in val_ds:\n"
        "            out = self.netG(x)\n            print((out - y).abs().mean().item())\n",
    ],
    "unguarded-zero": [
        # the IoU of two boxes: an overlap clamped at 0 over the union, 0 for disjoint boxes
        "def iou(a, b):\n    wh = (torch.min(a[:, 2:], b[:, 2:]) - torch.max(a[:, :2], b[:, :2])).clamp(min=0)\n"
        "    inter = wh[:, 0] * wh[:, 1]\n    union = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]) + 1.0 - inter\n"
        "    return inter / union\nloss = -iou(p, t).log().mean()  # !\n",
        "def iou(a, b):\n    wh = (torch.min(a[:, 2:], b[:, 2:]) - torch.max(a[:, :2], b[:, :2])).clamp(min=0)\n"
        "    inter = wh[:, 0] * wh[:, 1]\n    union = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]) + 1.0 - inter\n"
        "    return inter / union\nloss = -iou(p, t).clamp(min=1e-6).log().mean()\n",
        "rate = torch.clamp(net(x), min=0)\nnll = (rate - y * torch.log(rate)).mean()  # !\n",
        "rate = torch.clamp(net(x), min=1e-4)\nnll = (rate - y * torch.log(rate)).mean()\n",
    ],
    "softmax-over-batch-dim": [
        # a model's output on a batch of a data loader
        "net = nn.Linear(8, 5)\nfor data, label in test_iter:\n"
        "    probs = F.softmax(net(data), dim=0)  # !\n    preds.extend(probs.tolist())\n",
        "net = nn.Linear(8, 5)\nfor data, label in test_iter:\n"
        "    probs = F.softmax(net(data), dim=1)\n    preds.extend(probs.tolist())\n",
        # one state at a time (a policy's 1-D logits): dim 0 is the actions
        "policy = nn.Linear(4, 2)\nfor state in states:\n    p = F.softmax(policy(state), dim=0)\n",
        # a forward returning (probs, features) after flatten(x, 1)
        "class R(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(16, 3)\n"
        "    def forward(self, x):\n        f = torch.flatten(x, 1)\n        p = F.softmax(self.fc(f), dim=0)  # !\n"
        "        return p, f\n",
        # a batch_first RNN in the class: the forward's output rows are samples
        "class D(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.rnn = nn.GRU(8, 8, batch_first=True)\n        self.act = nn.LogSoftmax(dim=0)  # !\n"
        "    def forward(self, x):\n        o, h = self.rnn(x)\n        return self.act(o[:, -1])\n",
        "class D(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.rnn = nn.GRU(8, 8)\n        self.act = nn.LogSoftmax(dim=0)\n"
        "    def forward(self, x):\n        o, h = self.rnn(x)\n        return self.act(o[-1])\n",
    ],
    "loss-shape-broadcast": [
        # a target computed from one column, against an MLP whose list of layers ends in Linear(h, 1)
        "class MLP(nn.Module):\n    def __init__(self, h=16):\n        super().__init__()\n"
        "        layers = [nn.Linear(3, h), nn.Tanh()]\n        layers.append(nn.Linear(h, 1))\n"
        "        self.net = nn.Sequential(*layers)\n    def forward(self, x):\n        return self.net(x)\n"
        "model = MLP()\ny = torch.sin(3.14 * x[:, 0])\nloss = F.mse_loss(model(x), y)  # !\n",
        "class MLP(nn.Module):\n    def __init__(self, h=16):\n        super().__init__()\n"
        "        layers = [nn.Linear(3, h), nn.Tanh()]\n        layers.append(nn.Linear(h, 1))\n"
        "        self.net = nn.Sequential(*layers)\n    def forward(self, x):\n        return self.net(x)\n"
        "model = MLP()\ny = torch.sin(3.14 * x[:, 0:1])\nloss = F.mse_loss(model(x), y)\n",
        # the last layer appended is not one column
        "class MLP(nn.Module):\n    def __init__(self, h=16):\n        super().__init__()\n"
        "        layers = [nn.Linear(3, 1)]\n        layers.append(nn.Linear(1, h))\n"
        "        self.net = nn.Sequential(*layers)\n    def forward(self, x):\n        return self.net(x)\n"
        "model = MLP()\ny = torch.sin(3.14 * x[:, 0])\nloss = F.mse_loss(model(x), y)\n",
    ],
    "state-dict-not-copied": [
        # a snapshot before training compared with the weights after it
        "def finetune(model, loader, opt):\n    before = model.state_dict()  # !\n    for x, y in loader:\n"
        "        opt.zero_grad()\n        F.cross_entropy(model(x), y).backward()\n        opt.step()\n"
        "    return drift(before, model.state_dict())\n",
        "def finetune(model, loader, opt):\n    before = copy.deepcopy(model.state_dict())\n    for x, y in loader:\n"
        "        opt.zero_grad()\n        F.cross_entropy(model(x), y).backward()\n        opt.step()\n"
        "    return drift(before, model.state_dict())\n",
        # the live state saved after training: the final weights, as meant
        "def finetune(model, loader, opt):\n    sd = model.state_dict()\n    for x, y in loader:\n"
        "        opt.zero_grad()\n        F.cross_entropy(model(x), y).backward()\n        opt.step()\n"
        "    torch.save(sd, 'final.pt')\n",
    ],
}

# from the misses of the thirteenth recall corpus (read after the fourteenth was commissioned)
CASES["validation-in-train-mode"] += [
    # a scikit-learn style fitted attribute (module_) run by a per-batch validation method
    "class Wrap:\n    def __init__(self, module):\n        self.module_ = module\n"
    "        self.opt_ = torch.optim.SGD(module.parameters(), lr=0.1)\n"
    "    def infer(self, x):\n        return self.module_(x)\n"
    "    def validation_step(self, x, y):\n        self.module_.eval()\n        out = self.infer(x)  # !\n"
    "        return F.cross_entropy(out, y).item()\n"
    "    def fit(self, batches):\n        return [self.validation_step(x, y) for x, y in batches]\n",
]
CASES["optimizer-misses-params"] = [
    # a builder that replaces the model after the optimizer and hands both to its caller
    "def build(model):\n    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "    model = copy.deepcopy(model)  # !\n    return model, opt\n",
    "def build(model):\n    model = copy.deepcopy(model)\n    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "    return model, opt\n",
    "def export(model):\n    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "    model = copy.deepcopy(model)\n    return model\n",
]
CASES["loss-shape-broadcast"] += [
    # a TD target built from a squeezed (N,) value and a reward of unknown shape, against (N, 1)
    "q = nn.Linear(6, 1)\nwith torch.no_grad():\n    nxt = q(s2).squeeze(1)\n"
    "    target = r + 0.99 * (1 - d) * nxt\nloss = F.mse_loss(q(s), target)  # !\n",
    "q = nn.Linear(6, 1)\nwith torch.no_grad():\n    nxt = q(s2)\n"
    "    target = r + 0.99 * (1 - d) * nxt\nloss = F.mse_loss(q(s), target)\n",
]
CASES["state-dict-not-copied"] += [
    # snapshots kept in a list: every entry is the same live weights
    "for epoch in range(3):\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n    opt.step()\n"
    "    history.append(model.state_dict().copy())  # !\n",
    "for epoch in range(3):\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n    opt.step()\n"
    "    history.append(copy.deepcopy(model.state_dict()))\n",
]


@pytest.mark.parametrize("rule,src", [(r, s) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
