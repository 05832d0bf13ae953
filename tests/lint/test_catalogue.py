"""The catalogue rules (TD511+), one spelling per case: a line ending in `# !` must be
reported by the rule, every other line must stay quiet for it (negative cases have no
mark). Other rules may fire on the same snippet; only the rule under test is compared."""

import pytest

from traindoc.lint import lint_source

H = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
LOOP = "model = nn.Linear(4, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"


def check(rule: str, src: str) -> None:
    src = H + src
    want = {i for i, ln in enumerate(src.splitlines(), 1) if ln.rstrip().endswith("# !")}
    got = {f.location["line"] for f in lint_source(src, "t.py") if f.name == rule}
    assert got == want, (rule, sorted(got), sorted(want))


CASES = {
    "grad-cleared-before-step": [
        LOOP + "for x, y in dl:\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n"
               "    opt.zero_grad()  # !\n    opt.step()\n",
        LOOP + "for x, y in dl:\n    opt.zero_grad()  # !\n    opt.step()\n    model(x).sum().backward()\n",
        LOOP + "class T:\n    def __init__(self):\n        self.opt = opt\n    def fit(self, dl):\n"
               "        for b in dl:\n            model(b).sum().backward()\n            self.opt.zero_grad()  # !\n"
               "            self.opt.step()\n",
        # negatives
        LOOP + "for x, y in dl:\n    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n",
        LOOP + "for x, y in dl:\n    opt.step()\n    opt.zero_grad()\n    model(x).sum().backward()\n",
        LOOP + "for i, x in enumerate(dl):\n    model(x).sum().backward()\n    if i % 4 == 0:\n"
               "        opt.step()\n        opt.zero_grad()\n",
        LOOP + "g_opt = torch.optim.Adam(model.parameters())\nfor x in dl:\n    model(x).sum().backward()\n"
               "    g_opt.zero_grad()\n    opt.step()\n",                      # another optimizer's clear
        LOOP + "for x in dl:\n    def closure():\n        opt.zero_grad()\n        loss = model(x).sum()\n"
               "        loss.backward()\n        return loss\n    opt.step(closure)\n",   # LBFGS
        LOOP + "for t in tasks:\n    for _ in range(3):\n        opt.zero_grad()\n        model(t).sum().backward()\n"
               "        opt.step()\n    model(t).sum().backward()\n",       # inner loop on its own
    ],
    "train-mode-not-restored": [
        LOOP + "def validate(net):\n    net.eval()  # !\n    with torch.no_grad():\n        net(x)\n"
               "for ep in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n        model(x).sum().backward()\n"
               "        opt.step()\n    validate(model)\n",
        LOOP + "for ep in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n        model(x).sum().backward()\n"
               "        opt.step()\n    model.eval()  # !\n    with torch.no_grad():\n        model(x)\n",
        LOOP + "for ep in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n        model(x).sum().backward()\n"
               "        opt.step()\n    model.train(False)  # !\n",
        # negatives
        LOOP + "for ep in range(3):\n    model.train()\n    for x, y in dl:\n        opt.zero_grad()\n"
               "        model(x).sum().backward()\n        opt.step()\n    model.eval()\n",
        LOOP + "def validate(net):\n    net.eval()\n    net(x)\n    net.train()\n"
               "for ep in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n        model(x).sum().backward()\n"
               "        opt.step()\n    validate(model)\n",
        LOOP + "ema = nn.Linear(4, 2)\nfor ep in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n"
               "        model(x).sum().backward()\n        opt.step()\n    ema.eval()\n",     # not the trained model
        LOOP + "from engine import train_one_epoch\nfor ep in range(3):\n    train_one_epoch(model, dl, opt)\n"
               "    model.eval()\n",                                         # training not visible
        LOOP + "model.eval()\nfor x in dl:\n    model(x)\n",                    # inference only
    ],
    "functional-dropout-always-on": [
        "class M(nn.Module):\n    def forward(self, x):\n        return F.dropout(x, 0.5)  # !\n",
        "from torch.nn import functional as G\nclass M(nn.Module):\n    def forward(self, x):\n"
        "        return G.dropout2d(x, p=0.1)  # !\n",
        "class M(nn.Module):\n    def forward(self, x):\n        return torch.nn.functional.alpha_dropout(x, 0.1)  # !\n",
        # negatives
        "class M(nn.Module):\n    def forward(self, x):\n        return F.dropout(x, 0.5, training=self.training)\n",
        "class M(nn.Module):\n    def forward(self, x):\n        return F.dropout(x, 0.5, self.training)\n",
        "class M(nn.Module):\n    def forward(self, x):\n        return F.dropout(x, 0.5, training=True)\n",  # MC dropout
        "class M(nn.Module):\n    def forward(self, x):\n        return F.dropout(x, 0.5) if self.training else x\n",
        "def augment(x):\n    return F.dropout(x, 0.5)\n",                     # not in a module
        "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.d = nn.Dropout(0.5)\n",
    ],
    "bce-on-logits": [
        "head = nn.Linear(8, 1)\nloss = F.binary_cross_entropy(head(x), y)  # !\n",
        "net = nn.Sequential(nn.Linear(8, 4), nn.ReLU(), nn.Linear(4, 1))\ncrit = nn.BCELoss()\n"
        "out = net(x).squeeze(1)\nloss = crit(out, y)  # !\n",
        "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.c = nn.Conv2d(3, 1, 1)\n"
        "    def forward(self, x):\n        return self.c(x)\nm = M()\nloss = nn.BCELoss()(m(x), y)  # !\n",
        # negatives
        "head = nn.Linear(8, 1)\nloss = F.binary_cross_entropy(torch.sigmoid(head(x)), y)\n",
        "net = nn.Sequential(nn.Linear(8, 1), nn.Sigmoid())\nloss = nn.BCELoss()(net(x), y)\n",
        "head = nn.Linear(8, 1)\nloss = F.binary_cross_entropy_with_logits(head(x), y)\n",
        "loss = F.binary_cross_entropy(model(x), y)\n",                  # unknown model
    ],
    "unshifted-logsumexp": [
        "a = torch.log(torch.exp(s).sum(-1))  # !\n",
        "a = s.exp().sum(dim=1).log()  # !\n",
        "from torch import exp, log\na = log(exp(s).sum(1))  # !\n",
        "a = torch.log(1 + torch.exp(z))  # !\n",
        "a = torch.log(torch.exp(u) + torch.exp(v))  # !\n",
        "import numpy as np\na = np.log(np.sum(np.exp(s)))  # !\n",
        # negatives
        "a = torch.logsumexp(s, -1)\n",
        "m = s.amax(-1, keepdim=True)\na = torch.log(torch.exp(s - m).sum(-1)) + m\n",
        "a = torch.log(1 + torch.exp(-z.abs()))\n",
        "a = torch.log(torch.exp(F.log_softmax(s, -1)).sum(-1))\n",
        "a = torch.log(torch.exp(s.clamp(max=50)).sum(-1))\n",
        "a = torch.log(x.sum(-1))\n",
    ],
    "running-loss-keeps-graph": [
        LOOP + "total = 0\nfor x, y in dl:\n    opt.zero_grad()\n    loss = F.mse_loss(model(x), y)\n"
               "    loss.backward()\n    opt.step()\n    total += loss  # !\n",
        LOOP + "scaler = torch.amp.GradScaler()\ntotal = 0\nfor x, y in dl:\n    opt.zero_grad()\n"
               "    loss = F.mse_loss(model(x), y)\n    scaler.scale(loss).backward()\n    scaler.step(opt)\n"
               "    scaler.update()\n    total += loss * x.size(0)  # !\n",
        LOOP + "class T:\n    def fit(self, dl):\n        for x, y in dl:\n            opt.zero_grad()\n"
               "            loss = F.mse_loss(model(x), y)\n            loss.backward()\n            opt.step()\n"
               "            self.losses.append(loss)  # !\n",
        # negatives
        LOOP + "total = 0\nfor x, y in dl:\n    opt.zero_grad()\n    loss = F.mse_loss(model(x), y)\n"
               "    loss.backward()\n    opt.step()\n    total += loss.item()\n    total += float(loss)\n"
               "    total += loss.detach()\n    total += loss.data\n",
        LOOP + "total = 0\nfor x, y in dl:\n    loss = F.mse_loss(model(x), y)\n    total += loss\n",   # no backward
        LOOP + "for x, y in dl:\n    opt.zero_grad()\n    loss = 0\n    for t in range(3):\n"
               "        l = F.mse_loss(model(x), y)\n        loss += l\n    loss.backward()\n    opt.step()\n",
    ],
    "clip-before-unscale": [
        LOOP + "scaler = torch.amp.GradScaler()\nfor x, y in dl:\n    opt.zero_grad()\n"
               "    scaler.scale(model(x).sum()).backward()\n"
               "    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # !\n"
               "    scaler.step(opt)\n    scaler.update()\n",
        LOOP + "from torch.nn.utils import clip_grad_value_\nscaler = torch.cuda.amp.GradScaler()\n"
               "def step(x):\n    scaler.scale(model(x).sum()).backward()\n"
               "    clip_grad_value_(model.parameters(), 1.0)  # !\n    scaler.step(opt)\n    scaler.update()\n",
        # negatives
        LOOP + "scaler = torch.amp.GradScaler()\nfor x, y in dl:\n    scaler.scale(model(x).sum()).backward()\n"
               "    scaler.unscale_(opt)\n    nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n"
               "    scaler.step(opt)\n    scaler.update()\n",
        LOOP + "for x, y in dl:\n    model(x).sum().backward()\n    nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n"
               "    opt.step()\n",
        LOOP + "for x, y in dl:\n    accelerator.backward(model(x).sum())\n"
               "    accelerator.clip_grad_norm_(model.parameters(), 1.0)\n    opt.step()\n",
    ],
    "softmax-without-dim": [
        "s = nn.Softmax()  # !\n",
        "s = nn.LogSoftmax()  # !\n",
        "p = F.softmax(x)  # !\n",
        "from torch.nn.functional import log_softmax\np = log_softmax(x)  # !\n",
        # negatives
        "s = nn.Softmax(dim=-1)\np = F.softmax(x, -1)\nq = F.softmax(x, dim=1)\nr = torch.softmax(x, 1)\n",
        "p = F.softmax(x, **kw)\n",
        "p = x.softmax(-1)\n",
    ],
    "optimizer-misses-params": [
        "model = nn.Sequential(nn.Linear(4, 4))\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "model.fc = nn.Linear(4, 2)  # !\n",
        "class Head(nn.Module):\n    pass\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.opt = torch.optim.Adam(self.parameters())\n        self.head = Head()  # !\n",
        "def f(model):\n    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad])\n"
        "    model.encoder.requires_grad_(True)  # !\n    return opt\n",
        # negatives
        "model = nn.Sequential(nn.Linear(4, 4))\nmodel.fc = nn.Linear(4, 2)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n",
        "model = nn.Sequential(nn.Linear(4, 4))\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "model.fc = nn.Linear(4, 2)\nopt.add_param_group({'params': model.fc.parameters()})\n",
        "class Sched:\n    pass\nclass M(nn.Module):\n    def configure(self):\n"
        "        opt = torch.optim.Adam(self.parameters())\n        self.sched = Sched()\n        return opt\n",
        "def f(model):\n    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "    for p in model.parameters():\n        p.requires_grad = False\n    return opt\n",
        "def f(model, w):\n    opt = torch.optim.AdamW(filter(lambda p: p.requires_grad, model.parameters()))\n"
        "    w.requires_grad_()\n    return opt\n",                    # another tensor
    ],
    "backward-without-graph": [
        "with torch.no_grad():\n    loss = F.mse_loss(model(x), y)\n    loss.backward()  # !\n",
        "with torch.inference_mode():\n    loss = F.mse_loss(model(x), y)\n    scaler.scale(loss).backward()  # !\n",
        "loss = F.mse_loss(model(x).detach(), y)\nloss.backward()  # !\n",
        "crit = nn.CrossEntropyLoss()\nloss = crit(out.data, y)\nloss.backward()  # !\n",
        # negatives
        "with torch.no_grad():\n    t = model(x)\nloss = F.mse_loss(model(x), t)\nloss.backward()\n",
        "loss = F.mse_loss(model(x), y)\nwith torch.no_grad():\n    loss.backward()\n",   # graph recorded before
        "with torch.no_grad():\n    with torch.enable_grad():\n        loss = F.mse_loss(model(x), y)\n"
        "        loss.backward()\n",
        "with torch.set_grad_enabled(train):\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n",
        "d = F.mse_loss(D(G(z).detach()), y)\nd.backward()\n",
    ],
    "torch-load-unsafe": [
        "s = torch.load(p)  # !\n",
        "from torch import load as tload\ns = tload(p, map_location='cpu')  # !\n",
        # negatives
        "s = torch.load(p, weights_only=True)\n",
        "s = torch.load(p, weights_only=False)\n",
        "s = torch.load(p, **kw)\n",
        "import pickle\ns = pickle.load(f)\ns = json.load(f)\n",
    ],
}


@pytest.mark.parametrize("rule,src", [(r, s) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_every_catalogue_rule_has_positive_and_negative_cases():
    from traindoc.lint.registry import load_all

    rules = load_all()
    for rule, cases in CASES.items():
        assert rule in rules
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
