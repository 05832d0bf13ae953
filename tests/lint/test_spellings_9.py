"""Spellings added in the tenth pass (December 2026, from the misses of the fourteenth and
fifteenth recall corpora, each read after the next one was commissioned): each case as in test_catalogue.py (a line
ending in `# !` must be reported by the rule and no other line). Written in new words; near
misses included as negatives."""

import pytest

from tests.lint.test_catalogue import check
from traindoc.lint.engine import lint_source

CASES = {
    "tensor-op-result-discarded": [
        # a parameter defaulting to None, filled by a factory, then passed to a torch function
        "def frame(v, up=None):\n    if up is None:\n        up = torch.tensor([0.0, 1.0, 0.0])\n"
        "    up.to(v.device)  # !\n    return torch.cross(up, v, dim=-1)\n",
        "def frame(v, up=None):\n    if up is None:\n        up = torch.tensor([0.0, 1.0, 0.0])\n"
        "    up = up.to(v.device)\n    return torch.cross(up, v, dim=-1)\n",
        # an output appended to a list that torch.cat joins (its name says batch: no proof alone)
        "def collect(enc, loader, dev):\n    out = []\n    for xb in loader:\n        batch_emb = enc(xb)\n"
        "        batch_emb.to(dev)  # !\n        out.append(batch_emb)\n    return torch.cat(out)\n",
        "def collect(enc, loader, dev):\n    out = []\n    for xb in loader:\n        batch_emb = enc(xb)\n"
        "        batch_emb = batch_emb.to(dev)\n        out.append(batch_emb)\n    return torch.cat(out)\n",
        # the twin of a conversion assigned back (train_x / train_y), and a loop over a tuple of tensors
        "def fit(train_x, train_y, dev):\n    train_x.to(dev)  # !\n    train_y = train_y.to(dev)\n"
        "    return train_x[:4], train_y[:4]\n",
        "class G:\n    def fit(self, dev):\n        for t in self.train_inputs:\n            t.to(dev)  # !\n"
        "        self.train_targets = self.train_targets.to(dev)\n",
        # not twins: a module beside a tensor, a pipeline beside another name
        "def go(m, x, dev):\n    x = x.to(device=dev)\n    m.to(device=dev)\n    return m(x)\n",
        "def go(pipe_prior, pipeline, dev):\n    pipe_prior.to(dev)\n    pipeline = pipeline.to(dev)\n",
        "crit_a = nn.L1Loss()\ndef go(g_ab, dev):\n    g_ab = g_ab.cuda()\n    crit_a.cuda()\n",
        # negatives: a model moved in place, then compiled or saved (torch functions that take models)
        "def build(net, dev):\n    net.to(dev)\n    return torch.compile(net)\n",
        "def keep(encoder, dev, path):\n    encoder.to(dev)\n    torch.save(encoder, path)\n",
        # a batch object moved in place and appended to a list that is not joined by torch
        "def gather(loader, dev):\n    seen = []\n    for batch in loader:\n        batch.to(dev)\n"
        "        seen.append(batch)\n    return seen\n",
    ],
    "softmax-before-cross-entropy": [
        # train(model, ..., criterion) never called in the file; the module-level criterion is the one meant
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.out = nn.Sequential(nn.Linear(8, 3), nn.Softmax(dim=-1))\n"
        "    def forward(self, x):\n        return self.out(x)\n"
        "def train(model, loader, opt, criterion):\n    for x, y in loader:\n        opt.zero_grad()\n"
        "        loss = criterion(model(x), y)  # !\n        loss.backward()\n        opt.step()\n"
        "criterion = nn.CrossEntropyLoss()\n",
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.out = nn.Sequential(nn.Linear(8, 3), nn.Softmax(dim=-1))\n"
        "    def forward(self, x):\n        return self.out(x)\n"
        "def train(model, loader, opt, criterion):\n    for x, y in loader:\n        opt.zero_grad()\n"
        "        loss = criterion(model(x).log(), y)\n        loss.backward()\n        opt.step()\n"
        "criterion = nn.NLLLoss()\n",
    ],
    "one-hot-target": [
        # a segmentation mask one-hot, moved to channels first
        "seg = nn.Conv2d(3, 5, 1)\nfor img, msk in dl:\n"
        "    t = F.one_hot(msk.long(), 5).permute(0, 3, 1, 2).float()\n"
        "    loss = F.cross_entropy(seg(img), t)  # !\n",
        "seg = nn.Conv2d(3, 5, 1)\nfor img, msk in dl:\n    loss = F.cross_entropy(seg(img), msk.long())\n",
    ],
    "softmax-over-batch-dim": [
        "net = nn.Linear(8, 2)\nfor xb, yb in val_loader:\n    out = net(xb)\n"
        "    hit = torch.eq(torch.max(F.softmax(out, dim=0), dim=1)[1], yb)  # !\n",
        "net = nn.Linear(8, 2)\nfor xb, yb in val_loader:\n    out = net(xb)\n"
        "    hit = torch.eq(torch.max(F.softmax(out, dim=1), dim=1)[1], yb)\n",
    ],
    "log-of-softmax": [
        # the focal-loss spelling: the target's probability picked with a one-hot mask
        "def focal(x, y, gamma=2.0):\n    p = F.softmax(x, dim=1)\n"
        "    mask = torch.zeros(x.size(0), x.size(1))\n    mask.scatter_(1, y.view(-1, 1), 1.0)\n"
        "    pt = (p * mask).sum(1).view(-1, 1)\n    return (-(1 - pt) ** gamma * pt.log()).mean()  # !\n",
        "def focal(x, y, gamma=2.0):\n    p = F.softmax(x, dim=1)\n    pt = (p * F.one_hot(y, 4)).sum(1)\n"
        "    return (-(1 - pt) ** gamma * torch.log(pt)).mean()  # !\n",
        # a mask that is not a one-hot (attention weights): not the target's probability
        "def pooled(x, keep):\n    p = F.softmax(x, dim=1)\n    s = (p * keep.float()).sum(1)\n"
        "    return s.clamp(min=1e-6).log()\n",
        "def focal(x, y, gamma=2.0):\n    logp = F.log_softmax(x, dim=1).gather(1, y.view(-1, 1))\n"
        "    return (-(1 - logp.exp()) ** gamma * logp).mean()\n",
    ],
    "torch-load-unsafe": [
        # the file loads another checkpoint with weights_only=True: a literal path is no excuse
        "actor.load_state_dict(torch.load('actor.pth'))  # !\n"
        "critic.load_state_dict(torch.load('critic.pth', weights_only=True))\n",
        "actor.load_state_dict(torch.load('actor.pth'))\ncritic.load_state_dict(torch.load('critic.pth'))\n",
    ],
    "loss-arguments-swapped": [
        # a Hugging Face model's .logits given second
        "for batch in dl:\n    logits = model(**batch).logits\n"
        "    loss = F.cross_entropy(labels, logits)  # !\n",
        "for batch in dl:\n    logits = model(**batch).logits\n    loss = F.cross_entropy(logits, labels)\n",
    ],
    "validation-in-train-mode": [
        # a test loop indexing the test set through range(len(...)), with no no_grad
        "def main(model, test_set):\n    scores = []\n    for i in tqdm(range(len(test_set))):\n"
        "        x, y = test_set[i]\n        est = model(x[None])  # !\n        scores.append((est - y).abs().mean().item())\n"
        "    return scores\n",
        "def main(model, test_set):\n    scores = []\n    with torch.no_grad():\n"
        "        for i in tqdm(range(len(test_set))):\n            x, y = test_set[i]\n            est = model(x[None])\n"
        "            scores.append((est - y).abs().mean().item())\n    return scores\n",
        # the same shape over the training set trains: not a validation loop
        "def main(model, train_set, opt):\n    for i in range(len(train_set)):\n        x, y = train_set[i]\n"
        "        loss = (model(x[None]) - y).pow(2).mean()\n        opt.zero_grad()\n        loss.backward()\n"
        "        opt.step()\n",
    ],
}


@pytest.mark.parametrize("rule,src", [(r, s) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule


HELPER = ("import torch\nfrom torch.autograd import Variable\n"
          "def prep(batch, volatile=False):\n    x, y = batch\n"
          "    return Variable(x, volatile=volatile), Variable(y, volatile=volatile)\n"
          "def evaluate(model, loader):\n    model.eval()\n    for b in loader:\n"
          "        x, y = prep(b, volatile=True)\n        model(x)\n")


def test_volatile_flag_of_a_helper_cites_the_calls_that_turn_it_on():
    found = [f for f in lint_source(HELPER, "t.py") if f.name == "volatile-variable"]
    assert [f.location["line"] for f in found] == [5, 5]  # each Variable, where every fix changes it
    assert all("line 9" in f.message for f in found)
    assert all([e["line"] for e in f.evidence] == [5, 9] for f in found)


def test_volatile_flag_of_a_helper_no_call_turns_on_still_reported_without_a_citation():
    src = HELPER.replace("prep(b, volatile=True)", "prep(b)")
    found = [f for f in lint_source(src, "t.py") if f.name == "volatile-variable"]
    assert [f.location["line"] for f in found] == [5, 5]
    assert all(len(f.evidence) == 1 for f in found) and not any("line 9" in f.message for f in found)
