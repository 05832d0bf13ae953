"""Spellings added in the tenth pass (December 2026, from the misses of the fourteenth recall
corpus, read after the fifteenth was commissioned): each case as in test_catalogue.py (a line
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
        # negatives: a model moved in place, then compiled or saved (torch functions that take models)
        "def build(net, dev):\n    net.to(dev)\n    return torch.compile(net)\n",
        "def keep(encoder, dev, path):\n    encoder.to(dev)\n    torch.save(encoder, path)\n",
        # a batch object moved in place and appended to a list that is not joined by torch
        "def gather(loader, dev):\n    seen = []\n    for batch in loader:\n        batch.to(dev)\n"
        "        seen.append(batch)\n    return seen\n",
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
