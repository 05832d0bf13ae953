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
        # a device-side statistic added to in place
        LOOP + "stat = torch.zeros(())\nfor x, y in dl:\n    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n"
               "    loss.backward()\n    opt.step()\n    stat.add_(loss)  # !\n",
        LOOP + "stat = torch.zeros(())\nfor x, y in dl:\n    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n"
               "    loss.backward()\n    opt.step()\n    stat.add_(loss.detach())\n",
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
        # the loss comes back from a step function that backpropagated it
        LOOP + "def step(x, y):\n    opt.zero_grad()\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n"
               "    opt.step()\n    return loss\ntotal = 0\nfor x, y in dl:\n    loss = step(x, y)\n"
               "    total += loss  # !\n",
        # a statistics class of the file that sums what it is given
        LOOP + "class Stats:\n    def __init__(self):\n        self.sums = {}\n    def add(self, key, v):\n"
               "        self.sums[key] = self.sums.get(key, 0) + v\nstats = Stats()\nfor x, y in dl:\n"
               "    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
               "    stats.add('loss', loss)  # !\n",
        # negatives: a logger's add() that is not a class of the file (it converts);
        # the step function returns loss.item()
        LOOP + "for x, y in dl:\n    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n    loss.backward()\n"
               "    opt.step()\n    tracker.add('loss', loss)\n",
        LOOP + "def step(x, y):\n    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n    loss.backward()\n"
               "    opt.step()\n    return loss.item()\ntotal = 0\nfor x, y in dl:\n    total += step(x, y)\n",
        # negatives: numbers into the meter; a dict's update() that only stores the last step;
        # a torchmetrics-style metric updated with predictions
        LOOP + "for x, y in dl:\n    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n    loss.backward()\n"
               "    opt.step()\n    loss_meter.update(loss.item(), x.size(0))\n",
        LOOP + "logs = {}\nfor x, y in dl:\n    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n"
               "    loss.backward()\n    opt.step()\n    logs.update(loss=loss)\n",
        LOOP + "for x, y in dl:\n    out = model(x)\n    loss = F.mse_loss(out, y)\n    opt.zero_grad()\n"
               "    loss.backward()\n    opt.step()\n    metric.update(out, y)\n",
    ],
    "sigmoid-before-bce": [
        # the discriminator of the file reached through `netD` (a role by its initial)
        "class Discriminator(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.main = nn.Sequential(nn.Linear(8, 1), nn.Sigmoid())\n    def forward(self, x):\n"
        "        return self.main(x).view(-1)\n"
        "def train(netG, netD, dl, opt):\n    crit = nn.BCELoss()\n    for x in dl:\n"
        "        err = crit(netD(x), torch.ones(len(x)))  # !\n        err.backward()\n        opt.step()\n",
        # negative: netG is not the file's Discriminator
        "class Discriminator(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.main = nn.Sequential(nn.Linear(8, 1), nn.Sigmoid())\n    def forward(self, x):\n"
        "        return self.main(x).view(-1)\n"
        "def train(netG, dl, opt):\n    crit = nn.BCELoss()\n    for x in dl:\n"
        "        err = crit(netG(x), torch.ones(len(x)))\n        err.backward()\n        opt.step()\n",
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
    "scheduler-before-optimizer": [
        # a per-batch step method: scheduler first, every call
        "class Runner:\n    def __init__(self, model, opt, sched):\n        self.model, self.opt, self.sched = model, opt, sched\n"
        "    def train_step(self, batch):\n        loss = self.model(batch).sum()\n        loss.backward()\n"
        "        self.sched.step()  # !\n        self.opt.step()\n        self.opt.zero_grad()\n",
        # an optimizer from transformers, found by its class
        "from transformers import AdamW, get_linear_schedule_with_warmup\n"
        "def tune(model, batches):\n    adam = AdamW(model.parameters(), lr=1e-5)\n"
        "    warm = get_linear_schedule_with_warmup(adam, 10, 100)\n    for b in batches:\n"
        "        model(b).sum().backward()\n        warm.step()  # !\n        adam.step()\n        adam.zero_grad()\n",
        # negatives: the right order in a step method; the scheduler stepped in another branch
        "class Runner:\n    def __init__(self, model, opt, sched):\n        self.model, self.opt, self.sched = model, opt, sched\n"
        "    def train_step(self, batch):\n        self.model(batch).sum().backward()\n        self.opt.step()\n"
        "        self.sched.step()\n        self.opt.zero_grad()\n",
        "def update(opt, sched, warm):\n    if warm:\n        sched.step()\n    else:\n        opt.step()\n",
    ],
    "non-leaf-parameter": [
        "def fit(f, steps, device):\n    z = torch.zeros(1, 8, requires_grad=True)\n    z = z.to(device)  # !\n"
        "    for _ in range(steps):\n        f(z).sum().backward()\n        with torch.no_grad():\n"
        "            z -= 0.1 * z.grad\n",
        "def fit(f, device):\n    w = torch.randn(4, 4).requires_grad_()\n    w = w.cuda()  # !\n"
        "    opt = torch.optim.SGD([w], lr=0.1)\n    f(w).sum().backward()\n    opt.step()\n",
        # negatives: a gradient penalty's input (autograd.grad works on a non-leaf); .float()
        # of a float32 tensor (returns the tensor itself)
        "def penalty(critic, mix):\n    mix = torch.randn(4, 3, requires_grad=True)\n    mix = mix.cuda()\n"
        "    out = critic(mix)\n    g, = torch.autograd.grad(out.sum(), mix, create_graph=True)\n    return g.norm()\n",
        "def fit(f):\n    w = torch.randn(4, 4, requires_grad=True)\n    w = w.float()\n    f(w).sum().backward()\n"
        "    print(w.grad)\n",
    ],
    "unguarded-zero": [
        # log of a rate model's output that ends in ReLU (exactly 0 for negative inputs), through a loss class
        "class PoissonLoss:\n    def __call__(self, rate, y):\n        return (rate - y * torch.log(rate)).mean()  # !\n"
        "net = nn.Sequential(nn.Linear(4, 1), nn.ReLU())\nloss_fn = PoissonLoss()\n"
        "loss = loss_fn(net(torch.randn(8, 4)), torch.ones(8, 1))\n",
        # negatives: the same with an epsilon, and with a Softplus output (never exactly 0)
        "class PoissonLoss:\n    def __call__(self, rate, y):\n        return (rate - y * torch.log(rate + 1e-8)).mean()\n"
        "net = nn.Sequential(nn.Linear(4, 1), nn.ReLU())\nloss_fn = PoissonLoss()\n"
        "loss = loss_fn(net(torch.randn(8, 4)), torch.ones(8, 1))\n",
        "class PoissonLoss:\n    def __call__(self, rate, y):\n        return (rate - y * torch.log(rate)).mean()\n"
        "net = nn.Sequential(nn.Linear(4, 1), nn.Softplus())\nloss_fn = PoissonLoss()\n"
        "loss = loss_fn(net(torch.randn(8, 4)), torch.ones(8, 1))\n",
        "def gumbel(logits):\n    u = torch.rand_like(logits)\n    g = -torch.log(-torch.log(u))  # !\n"
        "    return F.softmax(logits + g, dim=-1)\n",
        # negatives: an epsilon inside; a division by a uniform sample (rare, left alone)
        "def gumbel(logits, eps=1e-10):\n    u = torch.rand_like(logits)\n"
        "    return logits - torch.log(-torch.log(u + eps) + eps)\n",
        "y = torch.rand(2, 2)\nz = torch.ones(2, 2) / y\n",
    ],
    "sigmoid-before-bce-with-logits": [
        # a loss module written for probabilities whose own with-logits call is the bug (flagged there)
        "class Focal(nn.Module):\n    def forward(self, probs, targets):\n"
        "        return F.binary_cross_entropy_with_logits(probs, targets)  # !\n"
        "crit = Focal()\nloss = crit(torch.sigmoid(torch.randn(4, 1)), torch.ones(4, 1))\n",
        # a focal-loss module built on BCE-with-logits, called on a model whose head ends in Sigmoid
        "class Focal(nn.Module):\n    def forward(self, inputs, targets):\n"
        "        bce = F.binary_cross_entropy_with_logits(inputs, targets, reduction='none')\n"
        "        return ((1 - torch.exp(-bce)) ** 2 * bce).mean()\n"
        "head = nn.Sequential(nn.Linear(8, 1), nn.Sigmoid())\ncrit = Focal()\n"
        "loss = crit(head(torch.randn(4, 8)), torch.ones(4, 1))  # !\n",
        "class Focal(nn.Module):\n    def forward(self, inputs, targets):\n"
        "        bce = F.binary_cross_entropy_with_logits(inputs, targets, reduction='none')\n"
        "        return ((1 - torch.exp(-bce)) ** 2 * bce).mean()\n"
        "head = nn.Sequential(nn.Linear(8, 1))\ncrit = Focal()\nloss = crit(head(torch.randn(4, 8)), torch.ones(4, 1))\n",
        # the head ends in a sigmoid; the loss module (fed from another file) names its input probs
        "class Head(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 4)\n"
        "    def forward(self, x):\n        return torch.sigmoid(self.fc(x))\n"
        "class Crit(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.bce = nn.BCEWithLogitsLoss()\n"
        "    def forward(self, exist_probs, target):\n        return self.bce(exist_probs, target)  # !\n",
        # negatives: no sigmoid in the file; a caller in the file passes logits
        "class Crit(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.bce = nn.BCEWithLogitsLoss()\n"
        "    def forward(self, probs, target):\n        return self.bce(probs, target)\n",
        "def crit(probs, t):\n    return F.binary_cross_entropy_with_logits(probs, t)\n"
        "def step(net, x, t):\n    print(torch.sigmoid(net(x)).mean())\n    return crit(net(x), t)\n",
    ],
    "clip-before-unscale": [
        # backward and step in separate methods, no unscale_ anywhere
        "class Updater:\n    def __init__(self, model, opt):\n        self.model, self.opt = model, opt\n"
        "        self.scaler = torch.cuda.amp.GradScaler()\n    def backward(self, loss):\n"
        "        self.scaler.scale(loss).backward()\n    def step(self):\n"
        "        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)  # !\n"
        "        self.scaler.step(self.opt)\n        self.scaler.update()\n",
        # a trainer with one hook per method, the clip's hook called before the unscale's
        "class Loop:\n    def __init__(self, model, opt):\n        self.model, self.opt = model, opt\n"
        "        self.scaler = torch.cuda.amp.GradScaler()\n    def backward(self, loss):\n"
        "        self.scaler.scale(loss).backward()\n    def clip(self):\n"
        "        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)  # !\n"
        "    def unscale(self):\n        self.scaler.unscale_(self.opt)\n    def fit(self, dl):\n"
        "        for x in dl:\n            self.backward(self.model(x).sum())\n            self.clip()\n"
        "            self.unscale()\n            self.scaler.step(self.opt)\n            self.scaler.update()\n",
        # negatives: the hooks in the right order; the clip of the float32 branch
        "class Loop:\n    def __init__(self, model, opt):\n        self.model, self.opt = model, opt\n"
        "        self.scaler = torch.cuda.amp.GradScaler()\n    def backward(self, loss):\n"
        "        self.scaler.scale(loss).backward()\n    def clip(self):\n"
        "        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)\n"
        "    def unscale(self):\n        self.scaler.unscale_(self.opt)\n    def fit(self, dl):\n"
        "        for x in dl:\n            self.backward(self.model(x).sum())\n            self.unscale()\n"
        "            self.clip()\n            self.scaler.step(self.opt)\n            self.scaler.update()\n",
        "class T:\n    def __init__(self, model, opt, amp):\n        self.model, self.opt, self.amp = model, opt, amp\n"
        "        self.scaler = torch.cuda.amp.GradScaler()\n    def batch(self, x):\n        loss = self.model(x).sum()\n"
        "        if self.amp:\n            self.scaler.scale(loss).backward()\n            self.scaler.unscale_(self.opt)\n"
        "            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)\n            self.scaler.step(self.opt)\n"
        "        else:\n            loss.backward()\n            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)\n"
        "            self.opt.step()\n    def epoch(self, dl):\n        for x in dl:\n            self.batch(x)\n",
        # negative: the backward method unscales
        "class Updater:\n    def __init__(self, model, opt):\n        self.model, self.opt = model, opt\n"
        "        self.scaler = torch.cuda.amp.GradScaler()\n    def backward(self, loss):\n"
        "        self.scaler.scale(loss).backward()\n        self.scaler.unscale_(self.opt)\n    def step(self):\n"
        "        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)\n"
        "        self.scaler.step(self.opt)\n        self.scaler.update()\n",
    ],
    "gradients-never-cleared": [
        # two optimizers, only the encoder's cleared
        "def train(E, D, dl):\n    opt_e = torch.optim.Adam(E.parameters())\n    opt_d = torch.optim.Adam(D.parameters())\n"
        "    for x in dl:\n        D(x).mean().backward()\n        opt_d.step()  # !\n        opt_e.zero_grad()\n"
        "        F.mse_loss(E(x), x).backward()\n        opt_e.step()\n",
        # negatives: the critic cleared through its model; both parts of one model cleared by it
        "def train(E, D, dl):\n    opt_e = torch.optim.Adam(E.parameters())\n    opt_d = torch.optim.Adam(D.parameters())\n"
        "    for x in dl:\n        D.zero_grad()\n        D(x).mean().backward()\n        opt_d.step()\n"
        "        opt_e.zero_grad()\n        F.mse_loss(E(x), x).backward()\n        opt_e.step()\n",
        "def train(model, dl):\n    a = torch.optim.Adam(model.encoder.parameters())\n"
        "    b = torch.optim.SGD(model.head.parameters(), lr=0.1)\n    for x in dl:\n        model.zero_grad()\n"
        "        model(x).sum().backward()\n        a.step()\n        b.step()\n",
    ],
    "state-dict-not-copied": [
        "class Stopper:\n    def __init__(self, model):\n        self.model, self.best, self.kept = model, 1e9, None\n"
        "    def check(self, val):\n        if val < self.best:\n            self.best = val\n"
        "            self.kept = self.model.state_dict()  # !\n    def restore(self):\n"
        "        self.model.load_state_dict(self.kept)\n",
        # negatives: a deep copy; a snapshot only saved, never restored by the class
        "import copy\nclass Stopper:\n    def __init__(self, model):\n        self.model, self.best, self.kept = model, 1e9, None\n"
        "    def check(self, val):\n        if val < self.best:\n            self.best = val\n"
        "            self.kept = copy.deepcopy(self.model.state_dict())\n    def restore(self):\n"
        "        self.model.load_state_dict(self.kept)\n",
        "class Saver:\n    def __init__(self, model):\n        self.model = model\n    def save(self, path):\n"
        "        self.kept = self.model.state_dict()\n        torch.save(self.kept, path)\n",
    ],
    "train-loader-not-shuffled": [
        # negative: an ordered loader for feature extraction next to the distributed training loader
        "from torch.utils.data import DataLoader, DistributedSampler\n"
        "def loaders(ds, bs):\n    train_dl = DataLoader(ds, batch_size=bs, sampler=DistributedSampler(ds))\n"
        "    feats_dl = DataLoader(ds, batch_size=bs)\n    return train_dl, feats_dl\n",
        # a loader factory whose only shuffling is a DistributedSampler (YOLOv5, MMDetection)
        "from torch.utils.data import DataLoader, DistributedSampler\n"
        "def create_dataloader(dataset, bs, rank=-1):\n"
        "    sampler = DistributedSampler(dataset) if rank != -1 else None\n"
        "    return DataLoader(dataset, batch_size=bs, sampler=sampler)  # !\n",
        "from torch.utils.data import DataLoader, DistributedSampler\n"
        "def build_dataloader(dataset, bs, dist=False):\n    if dist:\n"
        "        return DataLoader(dataset, batch_size=bs, sampler=DistributedSampler(dataset))\n"
        "    return DataLoader(dataset, batch_size=bs, num_workers=2)  # !\n",
        # negatives: shuffle when there is no sampler; an evaluation sampler that does not shuffle
        "from torch.utils.data import DataLoader, DistributedSampler\n"
        "def create_dataloader(dataset, bs, rank=-1):\n"
        "    sampler = DistributedSampler(dataset) if rank != -1 else None\n"
        "    return DataLoader(dataset, batch_size=bs, sampler=sampler, shuffle=sampler is None)\n",
        "from torch.utils.data import DataLoader, DistributedSampler\n"
        "def make_loader(dataset, bs, dist=False):\n"
        "    sampler = DistributedSampler(dataset, shuffle=False) if dist else None\n"
        "    return DataLoader(dataset, batch_size=bs, sampler=sampler)\n",
        # a dataset named `ds`, the loader named for training; the dataset reads image files
        "from torch.utils.data import DataLoader, Dataset\nclass Images(Dataset):\n"
        "    def __init__(self, paths):\n        self.paths = paths\n    def __len__(self):\n        return len(self.paths)\n"
        "    def __getitem__(self, i):\n        return open(self.paths[i], 'rb').read()\n"
        "ds = Images(['a', 'b'])\ntrain_loader = DataLoader(ds, batch_size=2)  # !\n",
        # negative: a dataset that generates its samples has no order to shuffle
        "from torch.utils.data import DataLoader, Dataset\nclass Parity(Dataset):\n"
        "    def __len__(self):\n        return 100\n    def __getitem__(self, i):\n        return torch.randint(0, 2, (8,))\n"
        "ds = Parity()\ntrain_loader = DataLoader(ds, batch_size=2)\n",
    ],
    "clip-after-step": [
        # the clip sits after the step in a per-batch method; the finding is on the clip
        "class Loop:\n    def __init__(self, model, opt):\n        self.model, self.opt = model, opt\n"
        "    def run_batch(self, x):\n        self.opt.zero_grad()\n        self.model(x).sum().backward()\n"
        "        self.opt.step()\n        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 0.5)  # !\n"
        "    def fit(self, dl):\n        for x in dl:\n            self.run_batch(x)\n",
        "class Loop:\n    def __init__(self, model, opt):\n        self.model, self.opt = model, opt\n"
        "    def run_batch(self, x):\n        self.opt.zero_grad()\n        self.model(x).sum().backward()\n"
        "        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 0.5)\n        self.opt.step()\n"
        "    def fit(self, dl):\n        for x in dl:\n            self.run_batch(x)\n",
    ],
    "accumulation-not-averaged": [
        # nanoGPT's form: micro-steps in an inner loop, one step after it
        LOOP + "def train(get_batch, accum_steps):\n    for it in range(100):\n        for micro in range(accum_steps):\n"
               "            x, y = get_batch()\n            loss = F.mse_loss(model(x), y)\n"
               "            loss.backward()  # !\n        opt.step()\n        opt.zero_grad()\n",
        # negatives: the loss divided; the gradients rescaled after the loop (MAML); a step
        # inside the inner loop (a critic's k updates)
        LOOP + "def train(get_batch, accum_steps):\n    for it in range(100):\n        for micro in range(accum_steps):\n"
               "            x, y = get_batch()\n            loss = F.mse_loss(model(x), y) / accum_steps\n"
               "            loss.backward()\n        opt.step()\n        opt.zero_grad()\n",
        LOOP + "def train(tasks, meta_batch):\n    for it in range(100):\n        opt.zero_grad()\n"
               "        for t in range(meta_batch):\n            F.mse_loss(*tasks(t)).backward()\n"
               "        for p in model.parameters():\n            p.grad.data.mul_(1.0 / meta_batch)\n        opt.step()\n",
        LOOP + "def train(get_batch, n_critic):\n    for it in range(100):\n        for c in range(n_critic):\n"
               "            opt.zero_grad()\n            model(get_batch()).mean().backward()\n            opt.step()\n"
               "        opt.step()\n",
    ],
    "softmax-over-batch-dim": [
        # negatives from review: scores over instances as a column, Flatten(0) over one sample
        "class Att(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.score = nn.Linear(8, 1)\n"
        "    def forward(self, enc):\n        e = self.score(enc).view(-1, 1)\n        return F.softmax(e, dim=0)\n",
        "net = nn.Sequential(nn.Conv2d(8, 1, 1), nn.Flatten(0), nn.Softmax(dim=0))\n",
        # a classifier whose layers keep a batch dimension (Flatten) ends in LogSoftmax(dim=0)
        "net = nn.Sequential(nn.Flatten(), nn.Linear(784, 10),\n"
        "                    nn.LogSoftmax(dim=0))  # !\n",
        # a forward returning log_softmax over dim 0 in a model with batch norm (in a sub-network)
        "class Feat(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.c, self.bn = nn.Conv1d(3, 8, 1), nn.BatchNorm1d(8)\n"
        "    def forward(self, x):\n        return self.bn(self.c(x)).max(2)[0]\n"
        "class Cls(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.f, self.fc = Feat(), nn.Linear(8, 4)\n"
        "    def forward(self, x):\n        return F.log_softmax(self.fc(self.f(x)), dim=0)  # !\n",
        # a forward that flattens keeping the rows, then normalises over dim 0
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(64, 10)\n"
        "    def forward(self, x):\n        x = x.view(x.size(0), -1)\n        out = self.fc(x).log_softmax(0)  # !\n"
        "        return out\n",
        # negatives: a policy on one 1-D state (dim 0 is its actions), attention weights over a
        # sequence-first axis that the forward does not return
        "policy = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2), nn.Softmax(dim=0))\n",
        "class Policy(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 2)\n"
        "    def forward(self, state):\n        return F.softmax(self.fc(state), dim=0)\n",
        "class Pool(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.score, self.bn = nn.Linear(16, 1), nn.BatchNorm1d(16)\n"
        "    def forward(self, h):\n        w = F.softmax(self.score(h), dim=0)\n        return (w * self.bn(h)).sum(0)\n",
    ],
    "optimizer-misses-params": [
        # Opacus replaces BatchNorm layers in a copy after the optimizer took the old parameters
        "from opacus.validators import ModuleValidator\nmodel = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8))\n"
        "opt = torch.optim.Adam(model.parameters(), lr=1e-3)\nmodel = ModuleValidator.fix(model)  # !\n"
        "for x in batches:\n    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n",
        # the same in another method of a class that keeps its optimizer on self
        "class Client:\n    def __init__(self):\n        self.model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8))\n"
        "        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)\n"
        "    def to_sync(self):\n        self.model = nn.SyncBatchNorm.convert_sync_batchnorm(self.model)  # !\n"
        "    def fit(self, x):\n        self.opt.zero_grad()\n        self.model(x).sum().backward()\n"
        "        self.opt.step()\n",
        # negatives: fused for export after training (no step after it); converted in __init__ first
        "model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8))\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for x in batches:\n    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n"
        "model = torch.ao.quantization.fuse_modules(model, [['0', '1']])\n",
        "class T:\n    def __init__(self):\n        self.model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8))\n"
        "        self.convert()\n        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)\n"
        "    def convert(self):\n        self.model = nn.SyncBatchNorm.convert_sync_batchnorm(self.model)\n"
        "    def fit(self, x):\n        self.opt.zero_grad()\n        self.model(x).sum().backward()\n"
        "        self.opt.step()\n",
        # negatives: converted before the optimizer, or the optimizer rebuilt after; DDP keeps the parameters
        "model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8))\n"
        "model = nn.SyncBatchNorm.convert_sync_batchnorm(model)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n",
        "from opacus.validators import ModuleValidator\nmodel = nn.Linear(4, 2)\n"
        "opt = torch.optim.Adam(model.parameters(), lr=1e-3)\nmodel = ModuleValidator.fix(model)\n"
        "opt = torch.optim.Adam(model.parameters(), lr=1e-3)\n",
        "model = nn.Linear(4, 2)\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)\n"
        "model = torch.nn.parallel.DistributedDataParallel(model)\n",
    ],
    "backward-without-graph": [
        # negative: gradients re-enabled inside the no-grad block of the helper
        LOOP + "def compute(x, y):\n    with torch.no_grad():\n        with torch.enable_grad():\n"
               "            loss = F.mse_loss(model(x), y)\n    return loss\n"
               "for x, y in dl:\n    opt.zero_grad()\n    loss = compute(x, y)\n    loss.backward()\n    opt.step()\n",
        # the loss is what a helper computed inside no_grad (assigned there, returned after the block)
        LOOP + "def compute(x, y):\n    with torch.no_grad():  # !\n        out = model(x)\n"
               "        loss = F.mse_loss(out, y)\n    return loss\n"
               "for x, y in dl:\n    opt.zero_grad()\n    loss = compute(x, y)\n    loss.backward()\n    opt.step()\n",
        # negative: a helper that computes its loss with gradients and only logs under no_grad
        LOOP + "def compute(x, y):\n    loss = F.mse_loss(model(x), y)\n    with torch.no_grad():\n"
               "        err = (model(x) - y).abs().max()\n    print(err)\n    return loss\n"
               "for x, y in dl:\n    opt.zero_grad()\n    loss = compute(x, y)\n    loss.backward()\n    opt.step()\n",
    ],
    "tensor-op-result-discarded": [
        # a function parameter that the function computes with (arithmetic): a tensor
        "def look(vertices, eye, device):\n    eye.to(device)  # !\n    return vertices - eye\n",
        # a batch argument given to a loss function
        LOOP + "def step(x, device):\n    x.to(device=device)  # !\n    loss = F.mse_loss(model(x), x)\n"
               "    loss.backward()\n",
        # negatives: a module moved in place, a batch object handed to the model whole
        "def setup(net, device):\n    net.to(device)\n    return net\n",
        "def step(model, batch, device):\n    batch.to(device)\n    return model(**batch).loss\n",
    ],
}


@pytest.mark.parametrize("rule,src", [(r, s) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
