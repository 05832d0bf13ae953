"""Spellings added in the twenty-fourth pass (December 2026, from the misses of the
twenty-ninth recall corpus, read after the thirtieth was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from tests.lint.test_catalogue import check

CASES = {
    "tensor-op-result-discarded": [
        # a helper of the file builds the tensor (or returns None): its result moved by a bare .cuda()
        """
        import numpy as np
        import torch
        def as_ids(ids):
            if ids is None:
                return None
            return torch.from_numpy(np.asarray(ids)).unsqueeze(0)
        def speak(model, ids, on_gpu):
            ids = as_ids(ids)
            if ids is not None and on_gpu:
                ids.cuda()  # !
            return model(ids)
        """,
        # a helper that returns a module: Module.cuda() works in place
        """
        import torch.nn as nn
        def build():
            return nn.Linear(4, 2)
        def prepare():
            net = build()
            net.cuda()
            return net
        """,
    ],
    "validation-in-train-mode": [
        # an evaluation function with no loop that puts the model in eval mode itself and
        # generates a sample through a method of the model, without no_grad
        """
        import torch
        def eval_audio(model, seed, steps):
            model.eval()
            wav = model.incremental_forward(seed, T=steps)  # !
            model.train()
            return wav
        def fit(model, opt, loader, seed):
            for x, y in loader:
                loss = torch.nn.functional.cross_entropy(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
            eval_audio(model, seed, 100)
        """,
        # the same shape whose helper runs the model under its own no_grad (pytorch/examples' imagenet)
        """
        import torch
        def validate(loader, model):
            def run(batches):
                with torch.no_grad():
                    for x, y in batches:
                        model(x)
            model.eval()
            run(loader)
        def fit(model, opt, loader, val_loader):
            for x, y in loader:
                loss = model(x).sum()
                loss.backward()
                opt.step()
            validate(val_loader, model)
        """,
        # a test function over a loader named in one word (`testloader`), no no_grad
        """
        import torch
        import torch.nn as nn
        crit = nn.CrossEntropyLoss()
        def test(net, testloader):
            net.eval()
            total = 0.0
            for x, y in testloader:
                out = net(x)  # !
                total += crit(out, y).item()
            return total
        """,
    ],
    "sigmoid-before-bce-with-logits": [
        # the step receives its criterion as a parameter; the file's builder returns it by that name
        """
        import torch
        import torch.nn as nn
        def stop_step(model, batch, opt, crit_stop):
            x, stop = batch
            logits = model(x)
            loss = crit_stop(torch.sigmoid(logits), stop)  # !
            opt.zero_grad()
            loss.backward()
            opt.step()
        def make_losses():
            crit_mel = nn.L1Loss()
            crit_stop = nn.BCEWithLogitsLoss()
            return crit_mel, crit_stop
        """,
        # the builder returns BCELoss: a sigmoid is what it wants
        """
        import torch
        import torch.nn as nn
        def stop_step(model, batch, opt, crit_stop):
            x, stop = batch
            loss = crit_stop(torch.sigmoid(model(x)), stop)
            loss.backward()
        def make_losses():
            crit_stop = nn.BCELoss()
            return crit_stop
        """,
    ],
    "accumulation-not-averaged": [
        # the step gated through a flag bound to the modulo (Lightning Fabric's examples)
        """
        import torch
        def fit(fabric, model, opt, data, accum=8):
            for it, (x, y) in enumerate(data):
                accumulating = (it + 1) % accum != 0
                with fabric.no_backward_sync(model, enabled=accumulating):
                    loss = torch.nn.functional.mse_loss(model(x), y)
                    fabric.backward(loss)  # !
                if not accumulating:
                    opt.step()
                    opt.zero_grad()
        """,
        # the same with the loss divided
        """
        import torch
        def fit(fabric, model, opt, data, accum=8):
            for it, (x, y) in enumerate(data):
                accumulating = (it + 1) % accum != 0
                with fabric.no_backward_sync(model, enabled=accumulating):
                    loss = torch.nn.functional.mse_loss(model(x), y) / accum
                    fabric.backward(loss)
                if not accumulating:
                    opt.step()
                    opt.zero_grad()
        """,
    ],
    "log-of-softmax": [
        # the loss receives the rollout's policies from outside the file; the model returns `policy`
        """
        import torch.nn as nn
        import torch.nn.functional as F
        class Agent(nn.Module):
            def __init__(self):
                super().__init__()
                self.pi = nn.Linear(4, 3)
                self.v = nn.Linear(4, 1)
            def forward(self, s):
                policy = F.softmax(self.pi(s), dim=-1)
                return policy, self.v(s)
        def actor_loss(rollout, weight):
            policies, actions, adv = rollout
            loss = 0.0
            for i in range(len(policies)):
                logp = policies[i].log()  # !
                loss = loss - (logp.gather(1, actions[i]) * adv[i]).mean()
            return loss
        """,
        # the model returns logits under that name: no softmax to take the log of
        """
        import torch.nn as nn
        class Agent(nn.Module):
            def __init__(self):
                super().__init__()
                self.pi = nn.Linear(4, 3)
            def forward(self, s):
                policy = self.pi(s)
                return policy
        def actor_loss(rollout):
            policies, actions = rollout
            return sum(p.log_softmax(-1).sum() for p in policies) + policies[0].log().sum()
        """,
    ],
    "softmax-over-batch-dim": [
        # one state made a batch of one, the model's scores normalised over that batch
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class Actor(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Linear(6, 4)
            def scores(self, s):
                return self.body(torch.tanh(s))
            def act(self, s):
                s = torch.as_tensor(s, dtype=torch.float32).unsqueeze(0)
                p = F.softmax(self.scores(s), dim=0)  # !
                return int(torch.multinomial(p, 1))
        """,
        # a policy method with a `softmax_dim=0` default (for one state) called on a batch without it
        """
        import torch.nn as nn
        import torch.nn.functional as F
        class Agent(nn.Module):
            def __init__(self):
                super().__init__()
                self.h = nn.Linear(4, 32)
                self.out = nn.Linear(32, 2)
            def pi(self, x, softmax_dim=0):
                return F.softmax(self.out(F.relu(self.h(x))), dim=softmax_dim)
            def update(self, s, a, old_p):
                p = self.pi(s)  # !
                ratio = p.gather(1, a) / old_p
                q = self.pi(s, softmax_dim=1)
                return ratio.mean() + q.gather(1, a).mean()
        """,
        # the method drops the batch of one itself: dim 0 is the actions
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class Actor(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Linear(6, 4)
            def scores(self, s):
                return self.body(s).squeeze(0)
            def act(self, s):
                s = torch.as_tensor(s, dtype=torch.float32).unsqueeze(0)
                p = F.softmax(self.scores(s), dim=0)
                return int(torch.multinomial(p, 1))
        """,
    ],
    "state-dict-not-copied": [
        # a getter returns the live state dict; a keeper stores it as "best" and restores it later
        """
        import torch
        import torch.nn as nn
        class Learner(nn.Module):
            def __init__(self):
                super().__init__()
                self.f = nn.Linear(3, 1)
                self.opt = torch.optim.SGD(self.parameters(), lr=0.1)
            def weights(self):
                return self.state_dict()  # !
            def set_weights(self, w):
                self.load_state_dict(w)
            def learn(self, x, y):
                loss = ((self.f(x) - y) ** 2).mean()
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
        class Keeper:
            def __init__(self, learner):
                self.learner, self.best, self.top = learner, None, -1e9
            def seen(self, score):
                if score > self.top:
                    self.top, self.best = score, None
                    self.best = self.learner.weights()
            def restore(self):
                self.learner.set_weights(self.best)
        """,
        # the getter copies
        """
        import copy
        import torch
        import torch.nn as nn
        class Learner(nn.Module):
            def __init__(self):
                super().__init__()
                self.f = nn.Linear(3, 1)
                self.opt = torch.optim.SGD(self.parameters(), lr=0.1)
            def weights(self):
                return copy.deepcopy(self.state_dict())
            def set_weights(self, w):
                self.load_state_dict(w)
            def learn(self, x, y):
                loss = ((self.f(x) - y) ** 2).mean()
                loss.backward()
                self.opt.step()
        class Keeper:
            def __init__(self, learner):
                self.learner, self.best = learner, None
            def seen(self):
                self.best = self.learner.weights()
            def restore(self):
                self.learner.set_weights(self.best)
        """,
    ],
}


@pytest.mark.parametrize("rule,src", [(r, dedent(s)) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
