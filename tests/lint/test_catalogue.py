"""The catalogue rules (TD511+), one spelling per case: a line ending in `# !` must be
reported by the rule, every other line must stay quiet for it (negative cases have no
mark). Other rules may fire on the same snippet; only the rule under test is compared."""

import pytest

from traindoc.lint import lint_source

H = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
LOOP = "model = nn.Linear(4, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
LOOPD = "model = nn.Sequential(nn.Linear(4, 2), nn.Dropout(0.1))\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"


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
        LOOPD + "def validate(net):\n    net.eval()  # !\n    with torch.no_grad():\n        net(x)\n"
               "for ep in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n        model(x).sum().backward()\n"
               "        opt.step()\n    validate(model)\n",
        LOOPD + "for ep in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n        model(x).sum().backward()\n"
               "        opt.step()\n    model.eval()  # !\n    with torch.no_grad():\n        model(x)\n",
        LOOPD + "for ep in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n        model(x).sum().backward()\n"
               "        opt.step()\n    model.train(False)  # !\n",
        # negatives
        LOOPD + "for ep in range(3):\n    model.train()\n    for x, y in dl:\n        opt.zero_grad()\n"
               "        model(x).sum().backward()\n        opt.step()\n    model.eval()\n",
        LOOPD + "def validate(net):\n    net.eval()\n    net(x)\n    net.train()\n"
               "for ep in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n        model(x).sum().backward()\n"
               "        opt.step()\n    validate(model)\n",
        LOOPD + "ema = nn.Linear(4, 2)\nfor ep in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n"
               "        model(x).sum().backward()\n        opt.step()\n    ema.eval()\n",     # not the trained model
        LOOPD + "from engine import train_one_epoch\nfor ep in range(3):\n    train_one_epoch(model, dl, opt)\n"
               "    model.eval()\n",                                         # training not visible
        LOOPD + "model.eval()\nfor x in dl:\n    model(x)\n",                    # inference only
        LOOP + "for ep in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n        model(x).sum().backward()\n"
               "        opt.step()\n    model.eval()\n",                # no dropout or BatchNorm: eval changes nothing
        # a diffusers UNet (GroupNorm, no dropout) through get_peft_model and accelerator.prepare: quiet
        "from diffusers import UNet2DConditionModel\nfrom peft import get_peft_model\n"
        "unet = UNet2DConditionModel.from_pretrained('x')\nunet = get_peft_model(unet, cfg)\n"
        "opt = torch.optim.AdamW(unet.parameters())\nunet, opt = accelerator.prepare(unet, opt)\n"
        "for ep in range(3):\n    for b in dl:\n        opt.zero_grad()\n        unet(b).sum().backward()\n"
        "        opt.step()\n    unet.eval()\n",
        # the same with an adapter dropout in the file: flagged
        "from diffusers import UNet2DConditionModel\nfrom peft import get_peft_model\n"
        "unet = UNet2DConditionModel.from_pretrained('x')\nunet = get_peft_model(unet, cfg(lora_dropout=0.1))\n"
        "opt = torch.optim.AdamW(unet.parameters())\nunet, opt = accelerator.prepare(unet, opt)\n"
        "for ep in range(3):\n    for b in dl:\n        opt.zero_grad()\n        unet(b).sum().backward()\n"
        "        opt.step()\n    unet.eval()  # !\n",
    ],
    "functional-dropout-always-on": [
        "class M(nn.Module):\n    def forward(self, x):\n        return F.dropout(x, 0.5)  # !\n",
        "from torch.nn import functional as G\nclass M(nn.Module):\n    def forward(self, x):\n"
        "        return G.dropout2d(x, p=0.1)  # !\n",
        "class M(nn.Module):\n    def forward(self, x):\n        return torch.nn.functional.alpha_dropout(x, 0.1)  # !\n",
        # negatives
        "class M(nn.Module):\n    def forward(self, x):\n        return F.dropout(x, 0.5, training=self.training)\n",
        "class M(nn.Module):\n    def forward(self, x):\n        return F.dropout(x, 0.5, self.training)\n",
        # Monte Carlo dropout, said in the file: deliberate
        "class MCDropoutNet(nn.Module):\n    def forward(self, x):\n        return F.dropout(x, 0.5, training=True)\n",
        # a literal training=True elsewhere: on after eval()
        "class M(nn.Module):\n    def forward(self, x):\n        return F.dropout(x, 0.5, training=True)  # !\n",
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
        # other spellings: re-wrapped losses and outputs, the forward under no_grad, requires_grad flags
        "from torch.autograd import Variable\nloss = F.mse_loss(model(x), y)\n"
        "loss = Variable(loss, requires_grad=True)  # !\nloss.backward()\n",
        "total = 0.0\nfor x, y in dl:\n    total += F.mse_loss(model(x), y).item()\n"
        "loss = torch.tensor(total / len(dl), requires_grad=True)  # !\nloss.backward()\n",
        "outs = [model(x) for x in xs]\nloss = F.cross_entropy(torch.Tensor(outs), y)\nloss.backward()  # !\n",
        "out = torch.from_numpy(model(x).detach().cpu().numpy())\nloss = F.nll_loss(out, y)\nloss.backward()  # !\n",
        "out = model(x).detach()\nloss = nn.CrossEntropyLoss()(out, y)\nloss.backward()  # !\n",
        "loss = crit(model(x), y)\nloss.requires_grad_(True)  # !\nloss.backward()\n",
        "def loss_fn(a, b):\n    loss = (b - a).mean()\n    loss = torch.tensor(loss, requires_grad=True)  # !\n"
        "    return loss\nfor x, y in dl:\n    loss = loss_fn(model(x), y)\n    loss.backward()\n"
        "    loss = loss_fn(model(x), y)\n    loss.backward()\n",          # reported once, in the function
        "model.eval()\nwith torch.no_grad():\n    logits = model(x)\nloss = F.cross_entropy(logits, y)\n"
        "opt.zero_grad()\nloss.backward()  # !\nopt.step()\n",
        "policy_loss = []\nfor lp, R in zip(saved_log_probs, returns):\n    policy_loss.append(-lp * R)\n"
        "loss = torch.tensor(policy_loss).sum()  # !\nloss.backward()\n",
        "log_probs = torch.tensor([t[1] for t in memory], dtype=torch.float)  # !\n"
        "loss = -(log_probs * advantages).mean()\nloss.backward()\n",          # an A3C worker
        # negatives
        "rewards = torch.tensor([t[2] for t in memory])\nlog_probs = torch.stack([t[1] for t in memory])\n"
        "loss = -(log_probs * rewards).mean()\nloss.backward()\n",
        "with torch.no_grad():\n    target_q = r + 0.99 * target_net(s2).max(1)[0]\n"
        "loss = F.mse_loss(target_q, q_net(s).gather(1, a).squeeze(1))\nloss.backward()\n",   # DQN, MSE either order
        "with torch.no_grad():\n    soft = teacher(x).softmax(-1)\nloss = F.cross_entropy(student(x), soft)\n"
        "loss.backward()\n",                                                 # distillation target
        "old_log_probs = torch.tensor(old_log_probs)\nratio = (new_log_probs - old_log_probs).exp()\n"
        "loss = -(ratio * adv).mean()\nloss.backward()\n",                  # PPO: old log-probs are data
        "w = torch.tensor(np.zeros(3), requires_grad=True)\nloss = ((x @ w - y) ** 2).mean()\nloss.backward()\n",
        "loss = torch.tensor(0.0, requires_grad=True)\nloss.backward()\n",
        "per = F.cross_entropy(model(x), y, reduction='none')\nloss = (torch.tensor(loss_weights) * per).mean()\n"
        "loss.backward()\n",                                                  # weights are data
        "x = torch.tensor(data)\nx.requires_grad = True\nloss = model(x).sum()\nloss.backward()\n",   # input saliency
        "loss = F.mse_loss(model(x), y)\nlog = torch.tensor(loss.item())\nloss.backward()\n",
        "def step(model, inputs, opt):\n    loss = model(**inputs)\n    if not isinstance(loss, torch.Tensor):\n"
        "        loss = torch.tensor(loss, requires_grad=True)\n    loss.backward()\n    opt.step()\n",  # a fallback
    ],
    "torch-load-unsafe": [
        "s = torch.load(p)  # !\n",
        "opts = parser.parse_args()\nm = torch.load(opts.model_path)  # !\ntorch.save(m, opts.logging_dir + 'best.pt')\n",
        "from torch import load as tload\ns = tload(p, map_location='cpu')  # !\n",
        # negatives
        "s = torch.load(p, weights_only=True)\n",
        "s = torch.load(p, weights_only=False)\n",
        "s = torch.load(p, **kw)\n",
        "import pickle\ns = pickle.load(f)\ns = json.load(f)\n",
        "s = torch.load('weights/data.pt')\n",                             # a fixed file of the project
        "s = torch.load(p)\ntorch.save(model.state_dict(), p)\n",           # the script's own checkpoints
        "import os\nck = os.path.join(out_dir, 'ckpt.pt')\ns = torch.load(ck)\n"
        "torch.save(state, os.path.join(out_dir, 'ckpt.pt'))\n",
    ],
    "unguarded-zero": [   # the powers added to TD505 (its other spellings: test_rules.py and its fixture)
        "n = (m > 0).sum()\nw = n.pow(-1)  # !\n",
        "v = x.var(0)\ns = v ** 0.5  # !\n",
        "r = torch.pow(x.norm(dim=1), -2)  # !\n",
        # negatives
        "n = (m > 0).sum()\nw = n.clamp(min=1).pow(-1)\n",
        "s = (x.var(0) + 1e-5) ** 0.5\ny = x ** 2\nz = x.norm() ** 2\n",
        "def f(adj):\n    d = (adj > 0).sum(1).pow(-0.5)\n    d[torch.isinf(d)] = 0\n    return d\n",
        # sqrt is finite at 0 (only its gradient is not): quiet where no gradient flows
        "def dist(a, b):\n    return torch.sqrt(((a - b) ** 2).sum(1))\n"
        "def evaluate(a, b):\n    return dist(a, b) < 3\nwith torch.no_grad():\n    d = torch.sqrt((x * x).sum())\n",
        "def dist(a, b):\n    return torch.sqrt(((a - b) ** 2).sum(1))  # !\n"
        "def evaluate(a, b):\n    return dist(a, b) < 3\nloss = dist(a, b).mean()\n",
        # the std of a whole parameter (thousands of weights) vs a batch statistic
        "rows = emb.weight.data[idx]\nratio = target_std / rows.std()\n",
        "ratio = target_std / x.std()  # !\n",
    ],
    "softmax-before-cross-entropy": [   # spellings the issue lists (the rule's own cases: its fixture)
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 3)\n"
        "        self.sm = nn.Softmax(dim=1)\n    def forward(self, x):\n        return self.sm(self.fc(x))\n"
        "class Trainer:\n    def __init__(self):\n        self.model = Net()\n"
        "        self.criterion = nn.CrossEntropyLoss()\n    def step(self, x, y):\n"
        "        return self.criterion(self.model(x), y)  # !\n",
        "def train(model, criterion, x, y):\n    return criterion(model(x), y)  # !\n"
        "net = nn.Sequential(nn.Linear(4, 3), nn.Softmax(-1))\ntrain(net, nn.CrossEntropyLoss(), x, y)\n",
        # negatives
        "net = nn.Sequential(nn.Linear(4, 3))\nloss = nn.CrossEntropyLoss()(net(x), y)\n",
    ],
    "loss-shape-broadcast": [
        "head = nn.Linear(8, 1)\nloss = F.mse_loss(head(x), y.view(-1))  # !\n",
        "net = nn.Sequential(nn.Linear(8, 1))\nloss = nn.L1Loss()(y.squeeze(), net(x))  # !\n",
        "loss = F.smooth_l1_loss(p.view(-1, 1), t.reshape(-1))  # !\n",
        "loss = F.mse_loss(p[:, None], t.flatten())  # !\n",
        # negatives
        "head = nn.Linear(8, 1)\nloss = F.mse_loss(head(x), y)\n",
        "head = nn.Linear(8, 3)\nloss = F.mse_loss(head(x), y.view(-1))\n",
        "head = nn.Linear(8, 1)\nloss = F.mse_loss(head(x).squeeze(1), y.view(-1))\n",
        "loss = F.mse_loss(p.view(-1), t.view(-1))\n",
        "head = nn.Linear(8, 1)\nloss = F.cross_entropy(head(x), y.view(-1))\n",
        # other spellings: a pandas column, factories, hand-written losses, BCE, functional forms
        "head = nn.Linear(8, 1)\ny = torch.tensor(df['price'].values, dtype=torch.float32)\n"
        "loss = nn.MSELoss()(head(x), y)  # !\n",
        "head = nn.Linear(8, 1)\ny = torch.from_numpy(df.target.to_numpy())\nloss = F.l1_loss(head(x), y)  # !\n",
        "head = nn.Linear(8, 1)\nloss = torch.mean((head(x) - data[:, -1]) ** 2)  # !\n",
        "head = nn.Linear(8, 1)\nloss = torch.abs(head(x) - torch.randn(len(x))).mean()  # !\n",
        "head = nn.Linear(8, 1)\nloss = (head(x) - y.view(-1)).pow(2).sum()  # !\n",
        "x = torch.unsqueeze(torch.linspace(-1, 1, 100), dim=1)\ny = x.pow(2).squeeze()\n"
        "loss = F.mse_loss(x, y)  # !\n",
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.out = nn.Linear(8, 1)\n"
        "    def forward(self, x):\n        return torch.sigmoid(self.out(x))\n"
        "loss = F.binary_cross_entropy(Net()(x), labels.view(-1))  # !\n",
        "from sklearn.model_selection import train_test_split\nX = df.drop(columns=['y']).values\n"
        "y = df.iloc[:, -1].values\nX_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2)\n"
        "y_tr = torch.FloatTensor(y_tr)\nmodel = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))\n"
        "for epoch in range(10):\n    loss = nn.MSELoss()(model(torch.FloatTensor(X_tr)), y_tr)  # !\n",
        "x = torch.tensor([[1.0], [2.0], [3.0]])\ny = torch.tensor([2.0, 4.0, 6.0])\nmodel = nn.Linear(1, 1)\n"
        "for epoch in range(100):\n    loss = nn.MSELoss()(model(x), y)  # !\n",
        "from collections import OrderedDict\n"
        "net = nn.Sequential(OrderedDict([('hidden', nn.Linear(8, 16)), ('act', nn.ReLU()), ('out', nn.Linear(16, 1))]))\n"
        "loss = F.mse_loss(net(x), y.flatten())  # !\n",
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.out = nn.Linear(8, 1)\n"
        "    def forward(self, x):\n        return self.out(x).squeeze(-1)\n"
        "loss = F.mse_loss(Net()(x), y.view(-1, 1))  # !\n",           # squeezed in forward, (N, 1) target
        # negatives
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.out = nn.Linear(8, 1)\n"
        "    def forward(self, x):\n        return self.out(x).squeeze(-1)\n"
        "loss = F.mse_loss(Net()(x), y.view(-1))\n",
        "x = torch.tensor([[1.0], [2.0], [3.0]])\ny = torch.tensor([[2.0], [4.0], [6.0]])\nmodel = nn.Linear(1, 1)\n"
        "loss = nn.MSELoss()(model(x), y)\n",
        "loss = F.mse_loss(torch.tensor([[1.0, 2.0]]), torch.tensor([1.0, 2.0]))\n",   # (1, 2) vs (2,): same values
        "from sklearn.model_selection import train_test_split\ny = df.iloc[:, -1].values.reshape(-1, 1)\n"
        "X_tr, X_te, y_tr, y_te = train_test_split(X, y)\nmodel = nn.Linear(8, 1)\n"
        "loss = nn.MSELoss()(model(X_tr), torch.FloatTensor(y_tr))\n",
        "head = nn.Linear(8, 1)\ny = torch.tensor(df[['price']].values)\nloss = F.mse_loss(head(x), y)\n",
        "head = nn.Linear(8, 1)\ny = torch.tensor(df['price'].values).unsqueeze(1)\nloss = F.mse_loss(head(x), y)\n",
        "head = nn.Linear(8, 1)\nloss = ((head(x).squeeze(-1) - y.view(-1)) ** 2).mean()\n",
        "head = nn.Linear(8, 1)\nloss = torch.mean(torch.squeeze(head(x), 1) - torch.randn(len(x)))\n",
        "head = nn.Linear(8, 1)\nd = (head(x) - y.view(-1)) ** 3\n",
        "a = torch.randn(16, 1)\nb = torch.randn(16, 1)\nloss = ((a - b) ** 2).mean()\n",
        "a = torch.randn(shape)\nb = torch.randn(16, 1)\nloss = ((a - b) ** 2).mean()\n",
        "head = nn.Linear(8, 1)\nloss = F.binary_cross_entropy_with_logits(head(x), y.float().view(-1, 1))\n",
    ],
    "hidden-state-not-detached": [
        LOOP + "rnn = nn.LSTM(4, 8)\nhidden = None\nfor x in dl:\n    opt.zero_grad()\n"
               "    out, hidden = rnn(x, hidden)  # !\n    out.sum().backward()\n    opt.step()\n",
        LOOP + "hx = None\nfor x in dl:\n    y, hx = model(x, hx)  # !\n    y.sum().backward(retain_graph=True)\n",
        # negatives
        LOOP + "rnn = nn.LSTM(4, 8)\nhidden = None\nfor x in dl:\n    hidden = hidden.detach() if hidden is not None else None\n"
               "    out, hidden = rnn(x, hidden)\n    out.sum().backward()\n",
        LOOP + "rnn = nn.LSTM(4, 8)\nfor x in dl:\n    hidden = None\n    out, hidden = rnn(x, hidden)\n"
               "    out.sum().backward()\n",                                  # reset every iteration
        LOOP + "for batch in dl:\n    batch = move_to_device(batch, dev)\n    model(batch).sum().backward()\n",
        LOOP + "rnn = nn.LSTM(4, 8)\nh = None\nfor t in range(10):\n    out, h = rnn(x[t], h)\nout.sum().backward()\n",
        LOOP + "for x in dl:\n    x = model(x)\n    x.sum().backward()\n",    # not a state
    ],
    "scheduler-before-optimizer": [
        LOOP + "sched = torch.optim.lr_scheduler.StepLR(opt, 10)\ndef train():\n    for x in dl:\n"
               "        opt.zero_grad()\n        model(x).sum().backward()\n        opt.step()\n"
               "for ep in range(3):\n    sched.step()  # !\n    train()\n",
        LOOP + "lr_scheduler = get_scheduler(opt)\nfor x in dl:\n    model(x).sum().backward()\n"
               "    lr_scheduler.step()  # !\n    opt.step()\n    opt.zero_grad()\n",
        # negatives
        LOOP + "sched = torch.optim.lr_scheduler.StepLR(opt, 10)\nfor x in dl:\n    model(x).sum().backward()\n"
               "    opt.step()\n    sched.step()\n    opt.zero_grad()\n",
        LOOP + "plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)\nfor ep in range(3):\n"
               "    plateau.step(val_loss)\n    for x in dl:\n        model(x).sum().backward()\n        opt.step()\n",
        LOOP + "sched = torch.optim.lr_scheduler.StepLR(opt, 10)\nfor ep in range(3):\n    sched.step()\n"
               "    train_one_epoch(model, dl, opt)\n",                       # the step is not visible
        LOOP + "sched = torch.optim.lr_scheduler.StepLR(opt, 10)\ndef test_sched():\n    for i in range(3):\n"
               "        sched.step()\n        opt.step()\n",
    ],
    "accumulation-not-averaged": [
        LOOP + "for i, (x, y) in enumerate(dl):\n    loss = F.mse_loss(model(x), y)\n    loss.backward()  # !\n"
               "    if (i + 1) % args.accum == 0:\n        opt.step()\n        opt.zero_grad()\n",
        LOOP + "scaler = torch.amp.GradScaler()\nfor i, (x, y) in enumerate(dl):\n    loss = F.mse_loss(model(x), y)\n"
               "    scaler.scale(loss).backward()  # !\n    if i % 8 == 0:\n        scaler.step(opt)\n"
               "        scaler.update()\n        opt.zero_grad()\n",
        # negatives
        LOOP + "for i, (x, y) in enumerate(dl):\n    loss = F.mse_loss(model(x), y) / args.accum\n    loss.backward()\n"
               "    if (i + 1) % args.accum == 0:\n        opt.step()\n        opt.zero_grad()\n",
        LOOP + "for i, (x, y) in enumerate(dl):\n    loss = F.mse_loss(model(x), y)\n    (loss / 4).backward()\n"
               "    if (i + 1) % 4 == 0:\n        opt.step()\n        opt.zero_grad()\n",
        LOOP + "for i, (x, y) in enumerate(dl):\n    opt.zero_grad()\n    loss = F.mse_loss(model(x), y)\n"
               "    loss.backward()\n    if i % 10 == 0:\n        opt.step()\n",      # cleared every iteration
        LOOP + "for i, batch in enumerate(dl):\n    with accelerator.accumulate(model):\n"
               "        accelerator.backward(model(batch).sum())\n        if i % 4 == 0:\n            opt.step()\n"
               "            opt.zero_grad()\n",
        LOOP + "def compute(x, y):\n    return F.mse_loss(model(x), y) / args.accum\nfor i, (x, y) in enumerate(dl):\n"
               "    loss = compute(x, y)\n    loss.backward()\n    if (i + 1) % args.accum == 0:\n        opt.step()\n"
               "        opt.zero_grad()\n",
    ],
    "unscaled-fp16": [   # TD507's other spellings (its first ones: its fixture)
        LOOP + "for x, y in dl:\n    with torch.amp.autocast(device_type='cuda', dtype=torch.float16):  # !\n"
               "        loss = F.mse_loss(model(x), y)\n    loss.backward()\n    opt.step()\n",
        LOOP + "from torch.cuda.amp import autocast\nfor x, y in dl:\n    with autocast(enabled=True):  # !\n"
               "        loss = F.mse_loss(model(x), y)\n    loss.backward()\n    opt.step()\n",
        LOOP + "dev = 'cuda'\nfor x, y in dl:\n    with torch.autocast(dev):  # !\n        loss = F.mse_loss(model(x), y)\n"
               "    loss.backward()\n",
        "model = Net().cuda()\nmodel = model.to(dtype=torch.float16)  # !\nopt = torch.optim.Adam(model.parameters())\n"
        "for x, y in dl:\n    F.mse_loss(model(x), y).backward()\n    opt.step()\n",
        "model = Net().cuda().half()  # !\nopt = torch.optim.Adam(model.parameters())\nfor x, y in dl:\n"
        "    F.mse_loss(model(x), y).backward()\n",
        LOOP + "for x, y in dl:\n    x = x.cuda().half()  # !\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n",
        "from transformers import AutoModelForSequenceClassification as M\nbert = M.from_pretrained('b')\n"
        "bert.to(torch.half)  # !\nopt = torch.optim.AdamW(bert.parameters(), lr=1e-5)\n"
        "for b in dl:\n    bert(**b).loss.backward()\n    opt.step()\n",
        LOOP + "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nfor x, y in dl:\n"
               "    with torch.amp.autocast(device_type=str(device)):  # !\n        loss = F.mse_loss(model(x), y)\n"
               "    loss.backward()\n",
        # a device the caller picks (args.device) and no dtype: float16 wherever it runs on CUDA
        LOOP + "for x, y in dl:\n    with torch.autocast(device_type=args.device):  # !\n"
               "        loss = F.mse_loss(model(x), y)\n    loss.backward()\n",
        # nanoGPT's dtype table with the key set to "float16"
        LOOP + "dtype = 'float16'\npt = {'float32': torch.float32, 'bfloat16': torch.bfloat16, 'float16': torch.float16}[dtype]\n"
               "ctx = torch.autocast(device_type='cuda', dtype=pt)  # !\nfor x, y in dl:\n    with ctx:\n"
               "        loss = F.mse_loss(model(x), y)\n    loss.backward()\n",
        # negatives
        LOOP + "dtype = 'bfloat16'\npt = {'float32': torch.float32, 'bfloat16': torch.bfloat16, 'float16': torch.float16}[dtype]\n"
               "ctx = torch.autocast(device_type='cuda', dtype=pt)\nfor x, y in dl:\n    with ctx:\n"
               "        loss = F.mse_loss(model(x), y)\n    loss.backward()\n",
        LOOP + "device = 'cuda' if torch.cuda.is_available() else 'cpu'\nfor x, y in dl:\n"
               "    with torch.autocast(device_type=device, dtype=torch.bfloat16):\n"
               "        loss = F.mse_loss(model(x), y)\n    loss.backward()\n",
        LOOP + "for x, y in dl:\n    with torch.autocast('cuda', dtype=torch.bfloat16):\n"
               "        loss = F.mse_loss(model(x), y)\n    loss.backward()\n",
        LOOP + "for x, y in dl:\n    with torch.autocast('cpu'):\n        loss = F.mse_loss(model(x), y)\n"
               "    loss.backward()\n",
        LOOP + "scaler = torch.amp.GradScaler('cuda')\nfor x, y in dl:\n    with torch.autocast('cuda'):\n"
               "        loss = F.mse_loss(model(x), y)\n    scaler.scale(loss).backward()\n    scaler.step(opt)\n"
               "    scaler.update()\n",
        LOOP + "model = model.to(torch.bfloat16)\nfor x, y in dl:\n    x = x.to(torch.bfloat16)\n"
               "    F.mse_loss(model(x), y).backward()\n",
        LOOP + "def evaluate(x):\n    return model(x.half())\nfor x, y in dl:\n    F.mse_loss(model(x), y).backward()\n",
        LOOP + "for x, y in dl:\n    F.mse_loss(model(x), y).backward()\nclip = torchvision.models.vit_b_16().half()\n",
        LOOP + "for x, y in dl:\n    y = y.half()\n    F.mse_loss(model(x), y).backward()\n",   # a target, not an input
        "from apex.fp16_utils import FP16_Optimizer\nmodel = nn.Linear(4, 2).cuda().half()\n"
        "optimizer = FP16_Optimizer(torch.optim.SGD(model.parameters(), lr=1e-3), static_loss_scale=128.0)\n"
        "for x, y in dl:\n    loss = F.mse_loss(model(x).float(), y)\n    optimizer.backward(loss)\n"
        "    optimizer.step()\n    loss.backward()\n",                         # apex scales the loss
        "model = Net().half()\nengine, opt, _, _ = deepspeed.initialize(model=model)\nfor b in dl:\n"
        "    loss = engine(b)\n    engine.backward(loss)\n    engine.step()\n    loss.backward()\n",
    ],
    "one-hot-target": [
        "t = F.one_hot(y, 10).float()\nloss = F.cross_entropy(logits, t)  # !\n",
        "loss = nn.CrossEntropyLoss()(logits, F.one_hot(y, 10))  # !\n",
        "loss = F.nll_loss(logp, F.one_hot(y).to(torch.float32))  # !\n",
        # negatives
        "loss = F.cross_entropy(logits, y)\n",
        "t = F.one_hot(y, 10).float()\nloss = F.binary_cross_entropy_with_logits(logits, t)\n",
        "loss = F.cross_entropy(logits, smooth(F.one_hot(y, 10)))\n",
        # other spellings: identity rows, numpy / keras / sklearn / pandas one-hots, float indices, BCE on indices
        "t = torch.eye(10, device=dev)[labels]\nloss = nn.CrossEntropyLoss()(logits, t)  # !\n",
        "from sklearn.preprocessing import LabelBinarizer\nlb = LabelBinarizer()\n"
        "Y = torch.FloatTensor(lb.fit_transform(labels))\nloss = F.cross_entropy(logits, Y)  # !\n",
        "import pandas as pd\nY = torch.tensor(pd.get_dummies(df['label']).values)\nloss = F.nll_loss(logp, Y)  # !\n",
        "from keras.utils import to_categorical\nY = to_categorical(labels, 10)\n"
        "loss = F.cross_entropy(logits, torch.tensor(Y).cuda())  # !\n",
        "model = nn.Linear(4, 3)\nfor x, y in dl:\n    out = model(x)\n    loss = F.cross_entropy(out, y.float())  # !\n"
        "    correct += (out.argmax(1) == y).sum().item()\n",
        "for x, y in dl:\n    out = model(x)\n    loss = F.cross_entropy(out, y.to(torch.float32))  # !\n"
        "    _, pred = torch.max(out, 1)\n    acc = (pred == y).float().mean()\n",
        "def to_categorical(y, num_classes):\n    new_y = torch.eye(num_classes)[y.cpu().data.numpy(),]\n"
        "    if y.is_cuda:\n        return new_y.cuda()\n    return new_y\n"
        "loss = F.cross_entropy(seg_pred, to_categorical(target, 50))  # !\n",          # a helper of the file
        "net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 5))\ny = torch.randint(0, 5, (32,))\n"
        "loss = F.binary_cross_entropy_with_logits(net(x), y.float())  # !\n",
        # negatives
        "for x, y in dl:\n    loss = F.cross_entropy(model(x), y.float())\n",          # y unknown: may be soft labels
        "t = 0.9 * torch.eye(10)[y] + 0.1 / 10\nloss = F.cross_entropy(logits, t)\n",     # label smoothing
        "t = torch.eye(10)[y]\nloss = F.cross_entropy(logits, t.argmax(dim=1))\n",
        "net = nn.Sequential(nn.Linear(8, 1))\ny = torch.randint(0, 2, (32,))\n"
        "loss = F.binary_cross_entropy_with_logits(net(x).squeeze(1), y.float())\n",     # binary head
        "net = nn.Linear(8, 5)\nloss = F.binary_cross_entropy_with_logits(net(x), F.one_hot(y, 5).float())\n",
        "e = torch.eye(10)\nloss = F.cross_entropy(logits @ e, y)\n",
        "def to_categorical(y, n):\n    return torch.eye(n)[y]\nout = model(x, to_categorical(cls, 16))\n"
        "loss = F.nll_loss(out, target)\n",                           # the one-hot is a model input, not the target
    ],
    "method-not-called": [
        "optimizer.zero_grad  # !\n",
        "loss.backward  # !\n",
        "self.model.eval  # !\n",
        "sched.step  # !\n",
        # negatives
        "optimizer.zero_grad()\nloss.backward()\nmodel.eval()\nf = optimizer.zero_grad\n",
        "if model.training:\n    pass\nmodel.training\n",
        "x.grad\n",
    ],
    "tensor-op-result-discarded": [
        "t = torch.zeros(3)\nt.cuda()  # !\n",
        "for x, y in train_loader:\n    x.to(device)  # !\n",
        "for i, (x, y) in enumerate(loader):\n    y.float()  # !\n",
        "def f(x: torch.Tensor):\n    x.to('cuda')  # !\n",
        # negatives
        "model = nn.Linear(2, 2)\nmodel.to(device)\nmodel.cuda()\nmodel.half()\n",
        "for batch in loader:\n    batch.to(device)\n",
        "for i, batch in enumerate(loader):\n    batch.to(device)\n",
        "for x, y in pairs:\n    x.to(device)\n",                          # not a loader
        "t = torch.zeros(3)\nt = t.cuda()\nt.add_(1)\nt.clamp_(0, 1)\n",
        "def f(net):\n    net.to(device)\n",
    ],
    "train-loader-not-shuffled": [
        "from torch.utils.data import DataLoader\ntrain_loader = DataLoader(train_set, batch_size=8)  # !\n",
        "from torch.utils import data\nclass DM:\n    def train_dataloader(self):\n"
        "        return data.DataLoader(self.train_ds, batch_size=8)  # !\n",
        # negatives
        "from torch.utils.data import DataLoader\nl = DataLoader(train_set, batch_size=8, shuffle=True)\n",
        "from torch.utils.data import DataLoader\nl = DataLoader(train_set, batch_size=8, shuffle=False)\n",
        "from torch.utils.data import DataLoader\nl = DataLoader(train_set, sampler=DistributedSampler(train_set))\n",
        "from torch.utils.data import DataLoader\nl = DataLoader(test_set, batch_size=8)\n",
        "from torch.utils.data import DataLoader\nl = DataLoader(train_set, **kw)\n",
        "from torch.utils.data import DataLoader\ndef evaluate():\n    l = DataLoader(train_set, batch_size=8)\n",
        "from torch.utils.data import DataLoader\nl = DataLoader(train_iterable, batch_size=8)\n",
        "from torch.utils.data import DataLoader\nl = DataLoader(pretrained_feats, batch_size=8)\n",
    ],
    "sigmoid-before-bce-with-logits": [
        "loss = F.binary_cross_entropy_with_logits(torch.sigmoid(z), y)  # !\n",
        "p = z.sigmoid()\nloss = nn.BCEWithLogitsLoss(pos_weight=w)(p, y)  # !\n",
        # negatives
        "loss = F.binary_cross_entropy_with_logits(z, y)\n",
        "loss = F.binary_cross_entropy(torch.sigmoid(z).clamp(1e-6, 1 - 1e-6), y)\n",
    ],
    "nan-equality-check": [
        "if loss == float('nan'):  # !\n    pass\n",
        "import numpy as np\nok = x != np.nan  # !\n",
        "import math\nok = x is math.nan  # !\n",
        "ok = torch.nan == x  # !\n",
        # negatives
        "import math\nok = math.isnan(x) or torch.isnan(t).any()\n",
        "ok = x != x\nok = x == float('inf')\nok = s == 'nan'\n",
    ],
    "state-dict-not-copied": [
        LOOP + "def fit():\n    for ep in range(3):\n        for x in dl:\n            opt.zero_grad()\n"
               "            model(x).sum().backward()\n            opt.step()\n        if better():\n"
               "            best = model.state_dict()  # !\n    model.load_state_dict(best)\n",
        LOOP + "class T:\n    def fit(self):\n        for x in dl:\n            opt.zero_grad()\n"
               "            model(x).sum().backward()\n            opt.step()\n"
               "            self.best = model.state_dict()  # !\n        model.load_state_dict(self.best)\n",
        # negatives
        LOOP + "import copy\ndef fit():\n    for ep in range(3):\n        for x in dl:\n            opt.zero_grad()\n"
               "            model(x).sum().backward()\n            opt.step()\n"
               "        best = copy.deepcopy(model.state_dict())\n    model.load_state_dict(best)\n",
        LOOP + "def fit():\n    for ep in range(3):\n        for x in dl:\n            opt.zero_grad()\n"
               "            model(x).sum().backward()\n            opt.step()\n        state = model.state_dict()\n"
               "        torch.save(state, 'c.pt')\n",
        LOOP + "def fit():\n    for m in models:\n        sd = m.state_dict()\n        model.load_state_dict(sd)\n",
    ],
    "loss-arguments-swapped": [
        "net = nn.Linear(4, 3)\nloss = F.cross_entropy(y, net(x))  # !\n",
        "net = nn.Linear(4, 1)\nout = net(x)\nloss = nn.BCEWithLogitsLoss()(labels, out)  # !\n",
        "class M(nn.Module):\n    def forward(self, x):\n        return x\nm = M()\nloss = F.nll_loss(y, m(x))  # !\n",
        # negatives
        "net = nn.Linear(4, 3)\nloss = F.cross_entropy(net(x), y)\n",
        "net = nn.Linear(4, 3)\nloss = F.mse_loss(y, net(x))\n",
        "net = nn.Linear(4, 3)\nteacher = nn.Linear(4, 3)\nloss = F.kl_div(F.log_softmax(net(x), -1), teacher(x))\n",
        "net = nn.Linear(4, 3)\nd = nn.Linear(3, 1)\nloss = F.binary_cross_entropy_with_logits(d(net(x)), d(net(z)))\n",
    ],
    "kl-div-input-not-log": [
        "loss = F.kl_div(F.softmax(s, -1), F.softmax(t, -1), reduction='batchmean')  # !\n",
        "loss = nn.KLDivLoss(reduction='batchmean')(s.softmax(-1), q)  # !\n",
        "loss = F.kl_div(F.log_softmax(s, -1), F.log_softmax(t, -1), reduction='batchmean')  # !\n",
        # negatives
        "loss = F.kl_div(F.log_softmax(s, -1), F.softmax(t, -1), reduction='batchmean')\n",
        "loss = F.kl_div(F.log_softmax(s, -1), F.log_softmax(t, -1), reduction='batchmean', log_target=True)\n",
        "loss = F.kl_div(logp, q, reduction='batchmean')\n",
    ],
    "kl-div-mean-reduction": [
        "loss = F.kl_div(logp, q)  # !\n",
        "crit = nn.KLDivLoss()  # !\n",
        "from torch.nn.functional import kl_div\nloss = kl_div(logp, q, reduction='mean')  # !\n",
        # negatives
        "loss = F.kl_div(logp, q, reduction='batchmean')\ncrit = nn.KLDivLoss(reduction='sum')\n",
        "loss = F.kl_div(logp, q, size_average=False)\n",
        "loss = F.kl_div(logp, q, **kw)\n",
    ],
    "scaler-update-missing": [
        LOOP + "scaler = torch.cuda.amp.GradScaler()\nfor x in dl:\n    scaler.scale(model(x).sum()).backward()\n"
               "    scaler.step(opt)  # !\n    opt.zero_grad()\n",
        # negatives
        LOOP + "scaler = torch.cuda.amp.GradScaler()\nfor x in dl:\n    scaler.scale(model(x).sum()).backward()\n"
               "    scaler.step(opt)\n    scaler.update()\n    opt.zero_grad()\n",
        LOOP + "class T:\n    def step(self, loss):\n        self.scaler.scale(loss).backward()\n"
               "        self.scaler.step(opt)\n        self.scaler.update()\n",
    ],
    "clip-after-step": [
        LOOP + "for x in dl:\n    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n"
               "    nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # !\n",
        LOOP + "for x in dl:\n    accelerator.clip_grad_norm_(model.parameters(), 1.0)  # !\n    opt.zero_grad()\n"
               "    model(x).sum().backward()\n    opt.step()\n",
        # negatives
        LOOP + "for x in dl:\n    opt.zero_grad()\n    model(x).sum().backward()\n"
               "    nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n    opt.step()\n",
        LOOP + "for i, x in enumerate(dl):\n    model(x).sum().backward()\n    if i % 2:\n"
               "        nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n        opt.step()\n        opt.zero_grad()\n",
        LOOP + "for x in dl:\n    opt.zero_grad()\n    model(x).sum().backward()\n    if amp:\n        scaler.step(opt)\n"
               "    else:\n        nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n        opt.step()\n",
    ],
    "backward-inside-autocast": [
        "with torch.autocast('cuda'):\n    loss = model(x).sum()\n    loss.backward()  # !\n",
        "from torch.cuda.amp import autocast\nwith autocast():\n    scaler.scale(model(x).sum()).backward()  # !\n",
        # negatives
        "with torch.autocast('cuda'):\n    loss = model(x).sum()\nloss.backward()\n",
        "with torch.autocast('cuda', enabled=False):\n    model(x).sum().backward()\n",
        "with torch.no_grad():\n    pass\nloss.backward()\n",
    ],
    "volatile-variable": [
        "from torch.autograd import Variable\nv = Variable(x, volatile=True)  # !\n",
        "v = torch.autograd.Variable(x.cuda(), volatile=True)  # !\n",
        # negatives
        "from torch.autograd import Variable\nv = Variable(x)\nw = Variable(x, volatile=False)\n",
        "v = other.Variable(x, volatile=True)\n",
    ],
    "non-leaf-parameter": [
        "w = torch.randn(3, 4, requires_grad=True).cuda()  # !\n",
        "w = torch.randn(3, 4, requires_grad=True) * 0.01  # !\n",
        "w = torch.zeros(3, requires_grad=True).to(torch.float64)  # !\n",
        # negatives
        "w = torch.randn(3, 4, requires_grad=True, device='cuda')\n",
        "w = (torch.randn(3, 4) * 0.01).requires_grad_()\n",
        "w = nn.Parameter(torch.randn(3) * 0.01)\n",
        "w = torch.randn(3, requires_grad=True)\ny = w * 2\n",
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
