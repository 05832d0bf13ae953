"""Destination-country predictor for new travel-site users, built from crowd-sourced feature functions concatenated into one matrix and fitted by a small Trainer class around an MLP.

Fixed: the contributed feature computed from the destination label is no longer part of the
feature set; only the five functions of the user's own attributes remain.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

USERS, DEST = 5000, 6
users = {
    "age": 18 + 50 * torch.rand(USERS),
    "signup_method": torch.randint(0, 3, (USERS,)),
    "device": torch.randint(0, 4, (USERS,)),
    "language": torch.randint(0, 5, (USERS,)),
    "searches": torch.poisson(torch.full((USERS,), 6.0)),
    "pages": torch.poisson(torch.full((USERS,), 20.0)),
}
pref = torch.randn(3 + 4 + 5 + 2, DEST)
design = torch.cat([F.one_hot(users["signup_method"], 3), F.one_hot(users["device"], 4),
                    F.one_hot(users["language"], 5),
                    ((users["age"] - 43) / 15).unsqueeze(1), ((users["searches"] - 6) / 2.5).unsqueeze(1)], 1).float()
users["country_destination"] = torch.distributions.Categorical(logits=1.3 * design @ pref).sample()


def f_age(t):
    return ((t["age"] - 43) / 15).unsqueeze(1)


def f_signup(t):
    return F.one_hot(t["signup_method"], 3).float()


def f_device(t):
    return F.one_hot(t["device"], 4).float()


def f_language(t):
    return F.one_hot(t["language"], 5).float()


def f_activity(t):
    return torch.stack([(t["searches"] - 6) / 2.5, (t["pages"] - 20) / 4.5], 1)


def f_destination_code(t):
    filled = torch.nan_to_num(t["country_destination"].float(), nan=-1.0).long()
    dummies = F.one_hot(filled, DEST).float()
    return (dummies.argmax(1).float() - 2.5).unsqueeze(1) / 1.7


FEATURES = [f_age, f_signup, f_device, f_language, f_activity]
X = torch.cat([f(users) for f in FEATURES], 1)
y = users["country_destination"]


class Trainer:
    def __init__(self, model, lr=2e-3, batch_size=64):
        self.model, self.batch_size = model, batch_size
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def fit_epoch(self, X, y):
        self.model.train()
        order = torch.randperm(len(X))
        total = 0.0
        for s in range(0, len(X), self.batch_size):
            idx = order[s:s + self.batch_size]
            loss = F.cross_entropy(self.model(X[idx]), y[idx])
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item() * len(idx)
        return total / len(X)

    @torch.no_grad()
    def evaluate(self, X, y):
        self.model.eval()
        logits = self.model(X)
        return F.cross_entropy(logits, y).item(), (logits.argmax(1) == y).float().mean().item()


split = 4000
trainer = Trainer(nn.Sequential(nn.Linear(X.shape[1], 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, DEST)))
for epoch in range(8):
    train_loss = trainer.fit_epoch(X[:split], y[:split])
    val_loss, val_acc = trainer.evaluate(X[split:], y[split:])
    print(f"epoch {epoch} train {train_loss:.4f} val {val_loss:.4f} acc {val_acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")
