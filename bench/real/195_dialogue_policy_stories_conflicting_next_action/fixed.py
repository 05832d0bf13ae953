"""Dialogue-policy network -- fixed by resolving the conflicts the detector reports: before training,
every dialogue state whose stories continue with different actions is relabelled with the action
most of its stories use, so each feature vector has one label (nothing else changed).
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

INTENTS, SLOTS, ACTIONS = 10, 4, 16


def featurize(intent, slots, prev):
    return torch.cat([F.one_hot(intent, INTENTS), slots, F.one_hot(prev, ACTIONS)], 1).float()


def generate_stories(n):
    intent = torch.randint(0, INTENTS, (n,))
    slots = (torch.rand(n, SLOTS) < 0.5).long()
    prev = torch.randint(0, ACTIONS, (n,))
    code = intent * 7 + (slots * torch.tensor([1, 2, 4, 8])).sum(1) * 3 + prev * 5
    action = code % ACTIONS
    state_id = intent * 16 * ACTIONS + (slots * torch.tensor([1, 2, 4, 8])).sum(1) * ACTIONS + prev
    disputed = torch.rand(INTENTS * 16 * ACTIONS) < 0.4
    other_author = disputed[state_id] & (torch.rand(n) < 0.4)
    action = torch.where(other_author, (action + 1 + state_id % 5) % ACTIONS, action)
    return featurize(intent, slots, prev), action


def prepare_training_data(X, y):
    states, inverse = torch.unique(X, dim=0, return_inverse=True)
    counts = torch.zeros(len(states), ACTIONS).index_put_((inverse, y), torch.ones(len(y)), accumulate=True)
    return X, counts.argmax(1)[inverse]


class Trainer:
    def __init__(self, model, lr, batch_size):
        self.model, self.batch_size = model, batch_size
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def fit(self, X, y, epochs):
        for epoch in range(epochs):
            order = torch.randperm(len(X))
            total = 0.0
            for i in range(0, len(X), self.batch_size):
                idx = order[i:i + self.batch_size]
                loss = F.cross_entropy(self.model(X[idx]), y[idx])
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                total += loss.item() * len(idx)
            if epoch % 5 == 0:
                print(f"epoch {epoch} loss {total / len(X):.4f}")
        return total / len(X)


X, y = generate_stories(6000)
X, y = prepare_training_data(X, y)
model = nn.Sequential(nn.Linear(X.shape[1], 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, ACTIONS))
final = Trainer(model, lr=3e-3, batch_size=128).fit(X, y, epochs=30)
with torch.no_grad():
    acc = (model(X).argmax(1) == y).float().mean().item()
print(f"final_loss={final:.6g} acc={acc:.4f}")
