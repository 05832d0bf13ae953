"""Spellings added in the fifth pass (December 2026, from the misses of the sixth recall
corpus, read after the seventh was scored): each case as in test_catalogue.py, a line
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
    ],
}


@pytest.mark.parametrize("rule,src", [(r, s) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
