"""Hand-made LSTM ticket router -- fixed by initialising the forget-gate bias to 1 (what Keras' built-in
LSTM does with unit_forget_bias=True), so the forget gate starts near 0.73 and the cell-state gradient
survives the 60 steps back to the product code (nothing else changed).
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

VOCAB, QUEUES, HIDDEN, LENGTH = 10, 4, 32, 60


def tickets(n):
    queue = torch.randint(0, QUEUES, (n,))
    tokens = torch.randint(QUEUES, VOCAB, (n, LENGTH))
    tokens[:, 0] = queue
    return F.one_hot(tokens, VOCAB).float(), queue


class TicketLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.x2g = nn.Linear(VOCAB, 4 * HIDDEN)
        self.h2g = nn.Linear(HIDDEN, 4 * HIDDEN, bias=False)
        self.head = nn.Linear(HIDDEN, QUEUES)
        with torch.no_grad():
            self.x2g.bias.zero_()
            self.x2g.bias[HIDDEN:2 * HIDDEN] = 1.0

    def forward(self, x):
        h = x.new_zeros(x.shape[0], HIDDEN)
        c = h
        for t in range(x.shape[1]):
            i, f, g, o = (self.x2g(x[:, t]) + self.h2g(h)).chunk(4, dim=1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
        return self.head(h)


X_train, y_train = tickets(3000)
X_test, y_test = tickets(1000)
model = TicketLSTM()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(10):
    order = torch.randperm(len(X_train))
    for i in range(0, len(order), 64):
        idx = order[i:i + 64]
        loss = F.cross_entropy(model(X_train[idx]), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.cross_entropy(logits, y_test).item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} test loss {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
