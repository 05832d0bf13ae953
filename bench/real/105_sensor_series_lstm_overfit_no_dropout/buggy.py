"""LSTM classifier of short sensor time series trained for many epochs on a small set with no regularisation: training accuracy rises while validation gets worse.

Source: https://github.com/tflearn/tflearn/issues/105 (Understanding the loss and accuracy outputs)
Report: "I'm training an LSTM to categorise time series data ... Any idea why the total
accuracy is increasing quite nicely, but the validation accuracy is decreasing?" Answer: "It
seems your network is overfitting, you may try some ops such as batch_normalization or dropout
to avoid such issues." Reproduced with tflearn's recipe in torch (lstm of 128 units on the raw
sequence, fully connected softmax layer, categorical cross-entropy, Adam, fit for many epochs
with a validation set) on 160 synthetic 3-axis sensor recordings of 4 activities (noisy
periodic patterns); the printed final loss is the validation loss, `acc` the validation
accuracy.

expect: overfitting
symptom: final-loss-ratio 1.8
batch: 5
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

T, N_CLASS = 40, 4
freq = torch.tensor([0.05, 0.08, 0.11, 0.14])


def make(n):
    y = torch.randint(0, N_CLASS, (n,))
    t = torch.arange(T).float()
    phase = 2 * math.pi * torch.rand(n, 1)
    f = freq[y].unsqueeze(1) * (1 + 0.25 * torch.randn(n, 1))
    base = torch.sin(2 * math.pi * f * t + phase)
    x = torch.stack([base, 0.5 * torch.cos(2 * math.pi * f * t + phase), 0.3 * base ** 2], 2)
    return x + 0.8 * torch.randn(n, T, 3), y


class Net(nn.Module):
    def __init__(self, dropout=0.0):
        super().__init__()
        self.lstm = nn.LSTM(3, 128, batch_first=True)
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(128, N_CLASS)

    def forward(self, x):
        out, _ = self.lstm(self.dropout(x))
        return self.fc(self.dropout(out[:, -1]))


x_train, y_train = make(160)
x_val, y_val = make(400)
model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(100):
    model.train()
    perm = torch.randperm(len(x_train))
    for i in range(0, len(perm), 16):
        idx = perm[i:i + 16]
        loss = F.cross_entropy(model(x_train[idx]), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        logits = model(x_val)
        val_loss = F.cross_entropy(logits, y_val).item()
        val_acc = (logits.argmax(1) == y_val).float().mean().item()
    if epoch % 10 == 9:
        print(f"epoch {epoch} loss {loss.item():.4f} val_loss {val_loss:.4f} val_acc {val_acc:.4f}")
print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")
