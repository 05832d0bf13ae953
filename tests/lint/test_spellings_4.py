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
}


@pytest.mark.parametrize("rule,src", [(r, s) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
