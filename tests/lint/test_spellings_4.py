"""Spellings added in the fifth pass (December 2026, from the misses of the sixth and
seventh recall corpora, each read after the next one was written): each case as in test_catalogue.py, a line
ending in `# !` must be reported by the rule and no other line. Written in new words;
near misses included as negatives."""

import pytest

from tests.lint.test_catalogue import LOOP, check

CASES = {
    "volatile-variable": [
        # the flag passed through: the evaluation pass relies on it and gets a graph
        "from torch.autograd import Variable\ndef wrap(ts, evaluating=False):\n"
        "    return [Variable(t, volatile=evaluating) for t in ts]  # !\n",
        "from torch.autograd import Variable\ndef wrap(t):\n    return Variable(t, volatile=False)\n",
    ],
    "running-loss-keeps-graph": [
        # a record holding the loss tensor, kept across the epoch
        LOOP + "history = []\nfor x, y in dl:\n    opt.zero_grad()\n    loss = F.mse_loss(model(x), y)\n"
               "    loss.backward()\n    opt.step()\n    history.append({'loss': loss, 'n': len(x)})  # !\n",
        LOOP + "history = []\nfor step, (x, y) in enumerate(dl):\n    opt.zero_grad()\n    loss = F.mse_loss(model(x), y)\n"
               "    loss.backward()\n    opt.step()\n    history.append((step, loss))  # !\n",
        LOOP + "history = []\nfor x, y in dl:\n    opt.zero_grad()\n    loss = F.mse_loss(model(x), y)\n"
               "    loss.backward()\n    opt.step()\n    history.append({'loss': loss.item(), 'n': len(x)})\n",
        # a Hugging Face output's loss, backpropagated through accelerate, summed as a tensor
        LOOP + "total = 0.0\nfor batch in dl:\n    out = model(**batch)\n    total += out.loss  # !\n"
               "    accelerator.backward(out.loss)\n    opt.step()\n    opt.zero_grad()\n",
        # DeepSpeed's engine.backward(loss)
        LOOP + "total = 0.0\nfor x, y in dl:\n    loss = F.mse_loss(model_engine(x), y)\n"
               "    model_engine.backward(loss)\n    model_engine.step()\n    total += loss  # !\n",
        # the name re-bound by an evaluation loop under no_grad, or detached first
        LOOP + "for epoch in range(3):\n    for x, y in dl:\n        opt.zero_grad()\n        loss = F.mse_loss(model(x), y)\n"
               "        accelerator.backward(loss)\n        opt.step()\n    losses = []\n    for x, y in dl:\n"
               "        with torch.no_grad():\n            out = model(x)\n        loss = F.mse_loss(out, y)\n"
               "        losses.append(loss)\n",
        LOOP + "losses = []\nfor x, y in dl:\n    opt.zero_grad()\n    loss = F.mse_loss(model(x), y)\n"
               "    loss.backward()\n    opt.step()\n    loss = loss.detach()\n    losses.append(loss)\n",
    ],
    "unguarded-zero": [
        # a ReLU output divided by its own channel maximum: 0/0 where every channel is <= 0
        "def score(feat):\n    feat = F.relu(feat)\n    peak = torch.max(feat, dim=1)[0]\n"
        "    return feat / peak.unsqueeze(1)  # !\n",
        "def score(feat):\n    feat = feat.relu()\n    return feat / feat.amax(dim=1, keepdim=True)  # !\n",
        "def score(feat):\n    feat = F.relu(feat)\n    peak = torch.max(feat, dim=1)[0]\n"
        "    return feat / (peak.unsqueeze(1) + 1e-8)\n",
        "def score(feat):\n    peak = torch.max(feat, dim=1)[0]\n    return feat / peak.unsqueeze(1)\n",
    ],
    "scheduler-before-optimizer": [
        # an epoch function that starts by stepping the schedule (the pre-1.1 order, moved into a function)
        LOOP + "sched = torch.optim.lr_scheduler.StepLR(opt, 10)\ndef train_epoch(dl):\n    sched.step()  # !\n"
               "    for x, y in dl:\n        opt.zero_grad()\n        F.mse_loss(model(x), y).backward()\n        opt.step()\n",
        LOOP + "sched = torch.optim.lr_scheduler.StepLR(opt, 10)\ndef train_epoch(dl):\n"
               "    for x, y in dl:\n        opt.zero_grad()\n        F.mse_loss(model(x), y).backward()\n        opt.step()\n"
               "    sched.step()\n",
        # fast-forwarding a resumed schedule in a loop of its own is not the pre-1.1 order
        LOOP + "sched = torch.optim.lr_scheduler.StepLR(opt, 10)\ndef train_epoch(dl, done=0):\n"
               "    for _ in range(done):\n        sched.step()\n"
               "    for x, y in dl:\n        opt.zero_grad()\n        F.mse_loss(model(x), y).backward()\n        opt.step()\n",
    ],
    "non-leaf-parameter": [
        "class Gate(nn.Module):\n    def __init__(self, d):\n        super().__init__()\n"
        "        self.g = nn.Parameter(torch.ones(d)).cuda()  # !\n",
        "class Gate(nn.Module):\n    def __init__(self, d):\n        super().__init__()\n"
        "        self.g = nn.Parameter(torch.ones(d).cuda())\n",
        # a loader writing into _parameters on purpose, and a frozen parameter moved
        "def put(module, name, value, dev):\n    module._parameters[name] = nn.Parameter(value).to(dev)\n",
        "def put(value, dev, old):\n    w = nn.Parameter(value, requires_grad=old.requires_grad).to(dev)\n    return w\n",
        # an attribute created as a leaf, then re-bound to its device copy
        "class Blend(nn.Module):\n    def __init__(self, a, gpu):\n        super().__init__()\n"
        "        self.a = torch.tensor([a], requires_grad=True)\n        if gpu:\n"
        "            self.a = self.a.cuda()  # !\n",
        "class Blend(nn.Module):\n    def __init__(self, a, gpu):\n        super().__init__()\n"
        "        self.a = torch.tensor([a])\n        if gpu:\n            self.a = self.a.cuda()\n",
    ],
    "scaler-update-missing": [
        # a skipped step (gradient norm too large or not finite) that skips update() too
        LOOP + "scaler = torch.amp.GradScaler()\nfor x, y in dl:\n    opt.zero_grad()\n"
               "    scaler.scale(F.mse_loss(model(x), y)).backward()\n    scaler.unscale_(opt)\n"
               "    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n    if torch.isfinite(gn):\n"
               "        scaler.step(opt)\n        scaler.update()  # !\n",
        LOOP + "scaler = torch.amp.GradScaler()\nfor x, y in dl:\n    opt.zero_grad()\n"
               "    scaler.scale(F.mse_loss(model(x), y)).backward()\n    scaler.unscale_(opt)\n"
               "    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n    if gn > 100:\n"
               "        print('skip')\n    else:\n        scaler.step(opt)\n        scaler.update()  # !\n",
        # update on both paths; and accumulation (a condition on the step count)
        LOOP + "scaler = torch.amp.GradScaler()\nfor x, y in dl:\n    opt.zero_grad()\n"
               "    scaler.scale(F.mse_loss(model(x), y)).backward()\n    scaler.unscale_(opt)\n"
               "    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n    if torch.isfinite(gn):\n"
               "        scaler.step(opt)\n        scaler.update()\n    else:\n        scaler.update()\n",
        # a non-finite loss skipped before its backward: the scaler saw nothing this iteration
        LOOP + "scaler = torch.amp.GradScaler()\nfor x, y in dl:\n    opt.zero_grad()\n"
               "    loss = F.mse_loss(model(x), y)\n    if torch.isfinite(loss):\n"
               "        scaler.scale(loss).backward()\n        scaler.step(opt)\n        scaler.update()\n",
        LOOP + "scaler = torch.amp.GradScaler()\nfor i, (x, y) in enumerate(dl):\n"
               "    scaler.scale(F.mse_loss(model(x), y) / 4).backward()\n    if (i + 1) % 4 == 0:\n"
               "        scaler.step(opt)\n        scaler.update()\n        opt.zero_grad()\n",
    ],
    "clip-after-step": [
        # Lightning runs backward after training_step returns: nothing to clip yet
        "import lightning as L\nclass Net(L.LightningModule):\n    def training_step(self, batch, i):\n"
        "        x, y = batch\n        loss = F.mse_loss(self(x), y)\n"
        "        torch.nn.utils.clip_grad_norm_(self.parameters(), 1.0)  # !\n        return loss\n",
        # manual optimization clips after its own backward
        "import lightning as L\nclass Net(L.LightningModule):\n    def __init__(self):\n        super().__init__()\n"
        "        self.automatic_optimization = False\n    def training_step(self, batch, i):\n"
        "        opt = self.optimizers()\n        loss = F.mse_loss(self(batch[0]), batch[1])\n"
        "        self.manual_backward(loss)\n        torch.nn.utils.clip_grad_norm_(self.parameters(), 1.0)\n"
        "        opt.step()\n",
        # a Trainer subclass whose base training_step ran backward
        "class MyTrainer(Trainer):\n    def training_step(self, model, inputs):\n"
        "        loss = super().training_step(model, inputs)\n"
        "        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n        return loss\n",
    ],
    "unshifted-logsumexp": [
        # merging two blocks' log-sum-exps: their difference is unbounded above
        "def merge(lse, block_lse):\n    return lse + torch.log(1 + torch.exp(block_lse - lse))  # !\n",
        "def lse(x):\n    m = x.max(-1, keepdim=True).values\n    return m + torch.log(torch.exp(x - m).sum(-1, keepdim=True))\n",
        "def soft_margin(pos, neg):\n    return torch.log1p(torch.exp(pos - neg)).mean()  # !\n",
        "def soft_margin(z):\n    return torch.log1p(torch.exp(-z.abs())) + z.clamp(min=0)\n",
    ],
    "backward-without-graph": [
        # a loss term detached inside the backpropagated sum
        LOOP + "disc = nn.Linear(2, 1)\nfor x, y in dl:\n    opt.zero_grad()\n    out = model(x)\n"
               "    adv = F.binary_cross_entropy_with_logits(disc(out), torch.ones(len(x), 1)).detach()  # !\n"
               "    loss = F.mse_loss(out, y) + 0.01 * adv\n    loss.backward()\n    opt.step()\n",
        LOOP + "disc = nn.Linear(2, 1)\nfor x, y in dl:\n    opt.zero_grad()\n    out = model(x)\n"
               "    adv = F.binary_cross_entropy_with_logits(disc(out), torch.ones(len(x), 1))\n"
               "    loss = F.mse_loss(out, y) + 0.01 * adv\n    loss.backward()\n    opt.step()\n"
               "    print(adv.detach())\n",
        # REINFORCE summed from floats: the log-probabilities' graph is gone
        "def reinforce(policy, opt, traj, r):\n    loss = torch.zeros((), requires_grad=True)\n    for s, a in traj:\n"
        "        log_probs = F.log_softmax(policy(s), -1)\n        loss = loss - log_probs[a].item() * r  # !\n"
        "    loss = loss / len(traj)\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n",
        "def reinforce(policy, opt, traj, r, w):\n    loss = 0\n    for s, a in traj:\n"
        "        log_probs = F.log_softmax(policy(s), -1)\n        loss = loss - log_probs[a] * r * w.item()\n"
        "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n",
    ],
    "backward-inside-autocast": [
        "scaler = torch.amp.GradScaler()\ndef step(model, x, y, opt, amp=True):\n"
        "    with torch.autocast('cuda', enabled=amp):\n        loss = F.mse_loss(model(x), y)\n"
        "        scaler.scale(loss).backward()  # !\n    scaler.step(opt)\n    scaler.update()\n",
        "scaler = torch.amp.GradScaler()\ndef step(model, x, y, opt):\n"
        "    with torch.autocast('cuda', enabled=False):\n        loss = F.mse_loss(model(x), y)\n"
        "        loss.backward()\n    opt.step()\n",
    ],
    "functional-dropout-always-on": [
        "class Attn(nn.Module):\n    def __init__(self, p):\n        super().__init__()\n        self.p = p\n"
        "    def forward(self, q, k, v):\n"
        "        return F.scaled_dot_product_attention(q, k, v, dropout_p=self.p, is_causal=True)  # !\n",
        "class Attn(nn.Module):\n    def __init__(self, p):\n        super().__init__()\n        self.p = p\n"
        "    def forward(self, q, k, v):\n"
        "        return F.scaled_dot_product_attention(q, k, v, dropout_p=self.p if self.training else 0.0)\n",
        "class Attn(nn.Module):\n    def __init__(self, p):\n        super().__init__()\n        self.p = p\n"
        "    def forward(self, q, k, v):\n        p = self.p if self.training else 0.0\n"
        "        return F.scaled_dot_product_attention(q, k, v, dropout_p=p)\n",
    ],
    "torch-load-unsafe": [
        "from huggingface_hub import hf_hub_download\ndef load(repo):\n"
        "    path = hf_hub_download(repo_id=repo, filename='model.pt')\n"
        "    return torch.load(path, map_location='cpu', weights_only=False)  # !\n",
        "def resume(path):\n    return torch.load(path, map_location='cpu', weights_only=False)\n",
    ],
    "state-dict-not-copied": [
        # one run per optimizer, each meant to start from the same initial weights
        LOOP + "init = model.state_dict()  # !\nfor lr in (0.1, 0.01):\n    model.load_state_dict(init)\n"
               "    for x, y in dl:\n        opt.zero_grad()\n        F.mse_loss(model(x), y).backward()\n"
               "        opt.step()\n",
        "import copy\n" + LOOP + "init = copy.deepcopy(model.state_dict())\nfor lr in (0.1, 0.01):\n"
               "    model.load_state_dict(init)\n    for x, y in dl:\n        opt.zero_grad()\n"
               "        F.mse_loss(model(x), y).backward()\n        opt.step()\n",
        # a frozen reference model's weights loaded into the trained one: they do not change
        LOOP + "ref = nn.Linear(4, 2)\ninit = ref.state_dict()\nfor lr in (0.1, 0.01):\n"
               "    model.load_state_dict(init)\n    for x, y in dl:\n        opt.zero_grad()\n"
               "        F.mse_loss(model(x), y).backward()\n        opt.step()\n",
    ],
}


@pytest.mark.parametrize("rule,src", [(r, s) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
