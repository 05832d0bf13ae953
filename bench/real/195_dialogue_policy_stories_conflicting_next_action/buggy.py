"""Dialogue-policy network for a task bot (the tracker state -- last user intent, filled slots, previous bot action -- as a one-hot / multi-hot vector, an MLP that predicts the next bot action, cross-entropy, Adam, trained through a small Trainer class) fed with training stories written by several people who did not agree: for many dialogue states one story continues with one action and another story with a different one, so the very same feature vector carries conflicting labels, the network can only spread its probability between them and the training loss and accuracy stay far from what a consistent story set reaches.

Source: https://github.com/RasaHQ/rasa_core/pull/195 (Adds conflict detector for training data)
Report: "Adds an optional argument to `Agent.train()` which will emit warnings if the generated
training data contains conflicting labels for the same feature vector ... it can come in handy
during those 'why is my accuracy so low?' moments." Reproduced with 6,000 state -> action rows
generated from stories over 10 intents, 4 slots and 16 bot actions (the intended policy is a fixed
function of the state); for 40% of the distinct states, 40% of their rows come from stories that
continue with another action. The featuriser builds a 30-dimensional vector, an MLP 30-128-64-16
with ReLU, Adam lr 3e-3, batches of 128, 30 epochs. The printed loss is the training
cross-entropy of the last epoch, `acc` the training accuracy.

expect: label-conflict
symptom: loss-above 0.35
batch: 11
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
    return X, y


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
