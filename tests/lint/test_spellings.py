"""More spellings of catalogue pitfalls (December 2026, second pass): each case as in
test_catalogue.py, a line ending in `# !` must be reported by the rule and no other line.
Written in new words from the pitfall's description; near misses included as negatives."""

import pytest

from tests.lint.test_catalogue import LOOP, check

CASES = {
    "train-mode-not-restored": [
        # validation mid-epoch through a function; train() only at the epoch's start; the
        # model comes from a caller (no layers in sight), so its dropout/BN are unknown
        "def evaluate(net, dl):\n    net.eval()  # !\n    with torch.no_grad():\n"
        "        return sum(net(x).sum().item() for x in dl)\n"
        "def fit(net, opt, dl, val, epochs):\n    for ep in range(epochs):\n        net.train()\n"
        "        for i, (x, y) in enumerate(dl):\n            opt.zero_grad()\n            net(x).sum().backward()\n"
        "            opt.step()\n            if i % 100 == 0:\n                evaluate(net, val)\n",
        "class Runner:\n    def __init__(self, net, opt):\n        self.net, self.opt = net, opt\n"
        "    def check(self, dl):\n        self.net.eval()  # !\n        for x in dl:\n            self.net(x)\n"
        "    def epoch(self, dl):\n        self.net.train()\n        for x in dl:\n            self.check(dl)\n"
        "            self.opt.zero_grad()\n            self.net(x).sum().backward()\n            self.opt.step()\n",
        # negatives: train() restored inside the loop after validating
        "def evaluate(net, dl):\n    net.eval()\n    return [net(x) for x in dl]\n"
        "def fit(net, opt, dl, val):\n    for i, x in enumerate(dl):\n        net(x).sum().backward()\n"
        "        opt.step()\n        opt.zero_grad()\n        if i % 100 == 0:\n            evaluate(net, val)\n"
        "            net.train()\n",
        # a model built here with no dropout or batch norm: eval mode changes nothing
        LOOP + "def evaluate(dl):\n    model.eval()\n    return [model(x) for x in dl]\n"
               "for i, x in enumerate(dl):\n    model(x).sum().backward()\n    opt.step()\n    opt.zero_grad()\n"
               "    evaluate(dl)\n",
        # a frozen teacher the loop only reads, in a file without .parameters(): not the trained model
        "def distill(student, teacher, opt, dl):\n    for x in dl:\n        teacher.eval()\n"
        "        with torch.no_grad():\n            t = teacher(x)\n        s = student(x)\n"
        "        F.mse_loss(s, t).backward()\n        opt.step()\n        opt.zero_grad()\n        student.train()\n",
    ],
    "running-loss-keeps-graph": [
        LOOP + "tot_rec = tot_kl = 0.0\nfor x, y in dl:\n    rec = F.mse_loss(model(x), y)\n"
               "    kl = model(x).pow(2).mean()\n    loss = rec + 0.1 * kl\n    opt.zero_grad()\n    loss.backward()\n"
               "    opt.step()\n    tot_rec += rec  # !\n    tot_kl = tot_kl + kl  # !\n",
        # negatives: the terms as numbers; a term not part of the backpropagated loss
        LOOP + "tot_rec = 0.0\nfor x, y in dl:\n    rec = F.mse_loss(model(x), y)\n    reg = model.weight.abs().sum()\n"
               "    loss = rec + reg\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
               "    tot_rec += rec.item()\n    tot_reg = reg.detach()\n",
        LOOP + "seen = 0\nfor x, y in dl:\n    n = x.shape[0]\n    loss = F.mse_loss(model(x), y)\n"
               "    loss.backward()\n    opt.step()\n    opt.zero_grad()\n    seen += n\n",
    ],
    "unscaled-fp16": [
        "def fit(unet, dl):\n    unet = unet.cuda().half()  # !\n    opt = torch.optim.AdamW(unet.parameters())\n"
        "    for x, y in dl:\n        F.mse_loss(unet(x).float(), y).backward()\n        opt.step()\n",
        # negative: a frozen encoder in half precision, the trained model in float32
        "def fit(unet, vae, dl):\n    vae = vae.cuda().half()\n    opt = torch.optim.AdamW(unet.parameters())\n"
        "    for x, y in dl:\n        F.mse_loss(unet(vae(x).float()), y).backward()\n        opt.step()\n",
    ],
    "unguarded-zero": [
        "def edges(img, conv):\n    g = conv(img)\n    return torch.sqrt(g[:, 0] ** 2 + g[:, 1] ** 2)  # !\n"
        "edges(x, nn.Conv2d(1, 2, 3)).mean().backward()\n",
        "def rescale(g, ema):\n    n = g.norm()\n    if ema > n:\n        return g * ema / n  # !\n    return g\n",
        "def pooled(logits, w):\n    p = torch.softmax(logits, dim=-1)\n    avg = p.mean(0)\n"
        "    return -(w * torch.log(avg)).sum()  # !\n",
        # negatives: eps added; clipping-style guard (n above a positive bound); the softmax
        # summed over its own axis (that is 1); a squared sum with eps
        "def edges(img, conv):\n    g = conv(img)\n    return torch.sqrt(g[:, 0] ** 2 + g[:, 1] ** 2 + 1e-8)\n"
        "edges(x, nn.Conv2d(1, 2, 3)).mean().backward()\n",
        "def clip(g, max_norm):\n    n = g.norm()\n    if n > max_norm:\n        g = g * max_norm / n\n    return g\n",
        "def total(logits):\n    p = torch.softmax(logits, dim=-1)\n    return torch.log(p.sum(-1))\n",
        "def pooled(logits, w):\n    p = torch.softmax(logits, dim=-1)\n    return -(w * torch.log(p.mean(0) + 1e-9)).sum()\n",
    ],
    "accumulation-not-averaged": [
        LOOP + "k = 0\nfor x, y in dl:\n    F.mse_loss(model(x), y).backward()  # !\n    k += 1\n"
               "    if k == 8:\n        opt.step()\n        opt.zero_grad()\n        k = 0\n",
        # negatives: divided by the count; a counter that is never reset (not accumulation)
        LOOP + "k = 0\nfor x, y in dl:\n    (F.mse_loss(model(x), y) / 8).backward()\n    k += 1\n"
               "    if k >= 8:\n        opt.step()\n        opt.zero_grad()\n        k = 0\n",
        LOOP + "k = 0\nfor x, y in dl:\n    opt.zero_grad()\n    F.mse_loss(model(x), y).backward()\n    k += 1\n"
               "    if k >= 8:\n        opt.step()\n",
    ],
    "functional-dropout-always-on": [
        "def dropout_mask(x, p):\n    keep = (torch.rand_like(x) > p).float()\n    return keep * x / (1 - p)\n"
        "class MLP(nn.Module):\n    def __init__(self, train_mode=True):\n        super().__init__()\n"
        "        self.train_mode = train_mode\n        self.fc = nn.Linear(4, 4)\n"
        "    def forward(self, x):\n        h = self.fc(x)\n        if self.train_mode:  # !\n"
        "            h = dropout_mask(h, 0.3)\n        return h\n",
        # negatives: gated on the module's own mode; the flag only switches a torch dropout that
        # receives the mode; a dropout module
        "def drop(x, p):\n    return x * (torch.rand_like(x) > p) / (1 - p)\n"
        "class MLP(nn.Module):\n    def forward(self, x):\n        if self.training:\n            x = drop(x, 0.3)\n"
        "        return x\n",
        "class MLP(nn.Module):\n    def __init__(self, use_drop):\n        super().__init__()\n"
        "        self.use_drop = use_drop\n    def forward(self, x):\n        if self.use_drop:\n"
        "            x = F.dropout(x, 0.3, training=self.training)\n        return x\n",
        "class MLP(nn.Module):\n    def __init__(self, use_drop):\n        super().__init__()\n"
        "        self.use_drop = use_drop\n        self.drop = nn.Dropout(0.3)\n    def forward(self, x):\n"
        "        if self.use_drop:\n            x = self.drop(x)\n        return x\n",
    ],
    "sigmoid-before-bce-with-logits": [
        "class Clf(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 1)\n"
        "        self.crit = F.binary_cross_entropy_with_logits\n    def forward(self, x):\n"
        "        return torch.sigmoid(self.fc(x))\n    def training_step(self, batch, i):\n        x, y = batch\n"
        "        p = self(x)\n        return self.crit(p, y)  # !\n",
        # negatives: the module returns logits; a stored loss that takes probabilities
        "class Clf(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 1)\n"
        "        self.crit = F.binary_cross_entropy_with_logits\n    def forward(self, x):\n        return self.fc(x)\n"
        "    def training_step(self, batch, i):\n        x, y = batch\n        return self.crit(self(x), y)\n",
        "class Clf(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 1)\n"
        "        self.crit = F.binary_cross_entropy\n    def forward(self, x):\n        return torch.sigmoid(self.fc(x))\n"
        "    def training_step(self, batch, i):\n        x, y = batch\n        return self.crit(self(x), y)\n",
    ],
    "backward-without-graph": [
        "class Two:\n    def second_pass(self, h):\n        with torch.no_grad():  # !\n            return self.net.head2(h)\n"
        "    def step(self, x, y):\n        h = self.net.body(x)\n        a = self.net.head1(h)\n"
        "        b = self.second_pass(h)\n        loss = F.cross_entropy(a, y) + F.cross_entropy(b.transpose(0, 1), y)\n"
        "        loss.backward()\n",
        "def outer(net, xs, ys, opt):\n    qs = [0.0] * 3\n    for k in range(3):\n        with torch.no_grad():\n"
        "            qs[k] += F.cross_entropy(net(xs[k]), ys[k])\n    last = qs[-1]\n    opt.zero_grad()\n"
        "    last.backward()  # !\n    opt.step()\n",
        # negatives: a no-grad helper that makes the target (DQN), and a list filled with gradients
        "class Agent:\n    def target(self, s2, r):\n        with torch.no_grad():\n            return r + 0.9 * self.tgt(s2).max(1)[0]\n"
        "    def step(self, s, a, r, s2):\n        q = self.q(s).gather(1, a).squeeze(1)\n"
        "        loss = F.smooth_l1_loss(q, self.target(s2, r))\n        loss.backward()\n",
        "def outer(net, xs, ys, opt):\n    qs = [0.0] * 3\n    for k in range(3):\n"
        "        qs[k] += F.cross_entropy(net(xs[k]), ys[k])\n    with torch.no_grad():\n        acc = net(xs[0]).argmax(1)\n"
        "    last = qs[-1]\n    last.backward()\n",
    ],

    "fully-masked-softmax": [
        "class Attn(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.sm = nn.Softmax(dim=-1)\n"
        "    def forward(self, q, k, pad):\n        s = q @ k.transpose(-2, -1)\n"
        "        s.data.masked_fill_(pad, float('-inf'))\n        return self.sm(s)  # !\n",
        "def masked_scores(v, keep):\n    v = v + keep.float().log()  # !\n    return v.log_softmax(-1)\n",
        # negatives: the finite fill; a causal mask; the log of a mask never reaching a softmax
        "class Attn(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.sm = nn.Softmax(dim=-1)\n"
        "    def forward(self, q, k, pad):\n        s = q @ k.transpose(-2, -1)\n"
        "        s.data.masked_fill_(pad, torch.finfo(s.dtype).min)\n        return self.sm(s)\n",
        "def causal(s):\n    tri = torch.tril(torch.ones_like(s)).bool()\n    s = s.masked_fill(~tri, float('-inf'))\n"
        "    return F.softmax(s, -1)\n",
        "def logged(v, keep):\n    v = v + keep.float().log()\n    return v.sum()\n",
    ],
    "one-hot-target": [
        "crit = nn.CrossEntropyLoss()\ndef step(net, x, y, C=10):\n    t = torch.zeros(y.size(0), C)\n"
        "    t[torch.arange(y.size(0)), y] = 1\n    return crit(net(x), t)  # !\n",
        "def step(net, x, y, C=10):\n    t = torch.zeros(len(y), C).scatter_(1, y[:, None], 1)\n"
        "    return F.cross_entropy(net(x), t)  # !\n",
        # negatives: zeros filled with a slice (a mask, not one-hot); the labels themselves
        "def step(net, x, y, C=10):\n    t = torch.zeros(len(y), C)\n    t[:, 0] = 1\n    return F.mse_loss(net(x), t)\n",
        "def step(net, x, y, C=10):\n    w = torch.zeros(len(y), C)\n    w[0, 1] = 0.5\n    return F.cross_entropy(net(x), y)\n",
    ],
    "unshifted-softmax": [
        "def edge_softmax(score, dst, n):\n    e = score.exp()  # !\n    z = torch.zeros(n).index_add_(0, dst, e)\n"
        "    return e / z[dst]\n",
        # negative: shifted by the max first
        "def edge_softmax(score, dst, n):\n    e = (score - score.max()).exp()\n    z = torch.zeros(n).index_add_(0, dst, e)\n"
        "    return e / z[dst]\n",
    ],
    "scheduler-before-optimizer": [
        "from ignite.engine import Events\nsched = torch.optim.lr_scheduler.StepLR(opt, 10)\n"
        "@trainer.on(Events.EPOCH_STARTED)\ndef lr_step(engine):\n    sched.step()  # !\n",
        "from ignite.engine import Events\nsched = torch.optim.lr_scheduler.StepLR(opt, 10)\ndef lr_step(engine):\n"
        "    sched.step()  # !\ntrainer.add_event_handler(Events.ITERATION_STARTED, lr_step)\n",
        # negative: after the epoch
        "from ignite.engine import Events\nsched = torch.optim.lr_scheduler.StepLR(opt, 10)\n"
        "@trainer.on(Events.EPOCH_COMPLETED)\ndef lr_step(engine):\n    sched.step()\n",
    ],
    "tensor-op-result-discarded": [
        "def fit(x1, dev, model, opt):\n    x1.to(dev)  # !\n    n = x1.size(0)\n    return model(x1[:n])\n",
        # negatives: a model and a batch object move in place
        "def fit(model, dev):\n    model.to(dev)\n    return model.dtype\n",
        "def fit(batch, dev):\n    batch.to(dev)\n    return batch.size(0)\n",
        "x = F.one_hot(torch.tensor([1, 2]), 3).float()\nx.cuda()  # !\n",
        # negative: a module's .cuda() is in place
        "net = nn.Linear(3, 3).float()\nnet.cuda()\n",
    ],
    "kl-div-input-not-log": [
        "def prior_term(logits, prior):\n    p = F.softmax(logits, dim=1)\n    avg = p.mean(dim=0)\n"
        "    return F.kl_div(avg, prior, reduction='sum')  # !\n",
        # negative: the log of the batch-mean probabilities
        "def prior_term(logits, prior):\n    p = F.softmax(logits, dim=1)\n    avg = p.mean(dim=0)\n"
        "    return F.kl_div(avg.log(), prior, reduction='sum')\n",
    ],
    "softmax-before-cross-entropy": [
        # the file's one model class, used through a parameter of a function nobody here calls
        "class TagHead(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.body = nn.Sequential(nn.Linear(8, 4), nn.LogSoftmax(dim=1))\n    def forward(self, x):\n"
        "        return self.body(x)\ndef step(head, x, y, opt):\n    crit = nn.CrossEntropyLoss()\n"
        "    loss = crit(head(x), y)  # !\n    loss.backward()\n    opt.step()\n",
        # negatives: two top-level models (which one is passed is unknown); a parameter not named as a model
        "class A(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.body = nn.Sequential(nn.Linear(8, 4), nn.LogSoftmax(dim=1))\n    def forward(self, x):\n"
        "        return self.body(x)\nclass B(nn.Module):\n    def forward(self, x):\n        return x\n"
        "def step(model, x, y):\n    return nn.CrossEntropyLoss()(model(x), y)\n",
        "class TagHead(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.body = nn.Sequential(nn.Linear(8, 4), nn.LogSoftmax(dim=1))\n    def forward(self, x):\n"
        "        return self.body(x)\ndef step(fn, x, y):\n    return nn.CrossEntropyLoss()(fn(x), y)\n",
    ],
    "grad-cleared-before-step": [
        "def step(net, opt, xb, yb, k=4):\n    for x, y in zip(xb.chunk(k), yb.chunk(k)):\n        opt.zero_grad()  # !\n"
        "        (F.mse_loss(net(x), y) / k).backward()\n    opt.step()\n",
        "def ppo(acc, policy, opt, batches):\n    for b in batches:\n        with acc.accumulate(policy):\n"
        "            acc.backward(policy(b).sum())\n            opt.step()\n            policy.zero_grad()  # !\n",
        # negatives: cleared once before the micro-batches; per-sample gradients read in the loop;
        # the optimizer's own zero_grad inside accumulate
        "def step(net, opt, xb, yb, k=4):\n    opt.zero_grad()\n    for x, y in zip(xb.chunk(k), yb.chunk(k)):\n"
        "        (F.mse_loss(net(x), y) / k).backward()\n    opt.step()\n",
        "def dp(net, opt, xs, ys):\n    acc = [torch.zeros_like(p) for p in net.parameters()]\n"
        "    for x, y in zip(xs, ys):\n        opt.zero_grad()\n        F.mse_loss(net(x), y).backward()\n"
        "        for a, p in zip(acc, net.parameters()):\n            a += p.grad.clamp(-1, 1)\n"
        "    for a, p in zip(acc, net.parameters()):\n        p.grad = a\n    opt.step()\n",
        "def ppo(acc, policy, opt, batches):\n    for b in batches:\n        with acc.accumulate(policy):\n"
        "            acc.backward(policy(b).sum())\n            opt.step()\n            opt.zero_grad()\n",
    ],
    "softmax-over-batch-dim": [
        "pol = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2), nn.Softmax(dim=0))\n"
        "def update(s, a, g):\n    probs = pol(s)  # !\n    p = probs.gather(dim=1, index=a.view(-1, 1))\n"
        "    return -(g * p.log()).sum()\n",
        # negatives: the class axis; one state at a time (1-D, dim 0 is the classes)
        "pol = nn.Sequential(nn.Linear(4, 2), nn.Softmax(dim=1))\ndef update(s, a):\n    probs = pol(s)\n"
        "    return probs.gather(dim=1, index=a.view(-1, 1))\n",
        "pol = nn.Sequential(nn.Linear(4, 2), nn.Softmax(dim=0))\ndef act(s):\n    probs = pol(s)\n"
        "    return torch.multinomial(probs, 1)\n",
    ],
    "hidden-state-not-detached": [
        "class Seq(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.rnn = nn.GRU(3, 8)\n"
        "        self.hidden = torch.zeros(1, 4, 8)\n    def forward(self, x):\n"
        "        y, self.hidden = self.rnn(x, self.hidden)  # !\n        return y\n"
        "for x in dl:\n    net(x).sum().backward()\n",
        # negatives: detached in the class; reset by the loop
        "class Seq(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.rnn = nn.GRU(3, 8)\n"
        "        self.hidden = torch.zeros(1, 4, 8)\n    def forward(self, x):\n"
        "        y, h = self.rnn(x, self.hidden)\n        self.hidden = h.detach()\n        return y\n"
        "for x in dl:\n    net(x).sum().backward()\n",
        "class Seq(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.rnn = nn.GRU(3, 8)\n"
        "    def forward(self, x):\n        y, self.hidden = self.rnn(x, self.hidden)\n        return y\n"
        "for x in dl:\n    net.hidden = torch.zeros(1, 4, 8)\n    net(x).sum().backward()\n",
    ],
    "clamped-residual-loss": [
        "def dqn_loss(q, tq):\n    d = tq - q\n    return d.clip(-1, 1).square().mean()  # !\n",
        # negatives: Huber by hand; a clamp of the prediction
        "def dqn_loss(q, tq):\n    a = (tq - q).abs()\n    c = a.clamp(max=1.0)\n    return (0.5 * c * c + a - c).mean()\n",
        "def loss(p, y):\n    return ((p.clamp(0, 1) - y) ** 2).mean()\n",
        # a one-sided hinge (self-imitation learning's value loss): by design
        "def sil(v, ret):\n    adv = torch.clamp(ret - v, min=0.0)\n    return adv.pow(2).mean() / 2\n",
    ],
    "gradients-never-cleared": [
        # a step helper whose clearing is behind a flag the call leaves off (tt-blacksmith's
        # LoRA trainer): the flag's value read from a module constant, a literal, the default
        "ZERO_GRAD = False\nclass T:\n    def __init__(self, m, opt):\n        self.m, self.opt = m, opt\n"
        "    def optimizer_step(self, zero_grad=False):\n        self.opt.step()\n        if zero_grad:\n"
        "            self.opt.zero_grad()\n    def fit(self, dl):\n        for x in dl:\n"
        "            self.m(x).sum().backward()\n            self.optimizer_step(zero_grad=ZERO_GRAD)  # !\n",
        "class T:\n    def __init__(self, m, opt):\n        self.m, self.opt = m, opt\n"
        "    def optimizer_step(self, zero_grad=False):\n        self.opt.step()\n        if zero_grad:\n"
        "            self.opt.zero_grad()\n    def fit(self, dl):\n        for x in dl:\n"
        "            self.m(x).sum().backward()\n            self.optimizer_step()  # !\n",
        # negatives: the flag set (constant, literal, positional), or a value the file does not settle
        "ZERO_GRAD = True\nclass T:\n    def __init__(self, m, opt):\n        self.m, self.opt = m, opt\n"
        "    def optimizer_step(self, zero_grad=False):\n        self.opt.step()\n        if zero_grad:\n"
        "            self.opt.zero_grad()\n    def fit(self, dl):\n        for x in dl:\n"
        "            self.m(x).sum().backward()\n            self.optimizer_step(zero_grad=ZERO_GRAD)\n",
        "class T:\n    def __init__(self, m, opt):\n        self.m, self.opt = m, opt\n"
        "    def optimizer_step(self, zero_grad=False):\n        self.opt.step()\n        if zero_grad:\n"
        "            self.opt.zero_grad()\n    def fit(self, dl, clear):\n        for x in dl:\n"
        "            self.m(x).sum().backward()\n            self.optimizer_step(True)\n"
        "            self.optimizer_step(zero_grad=clear)\n",
    ],
}


@pytest.mark.parametrize("rule,src", [(r, s) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
