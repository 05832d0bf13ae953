"""Clothing-thumbnail softmax regression -- fixed by zeroing the gradients before every backward pass
(trainer.zero_grad()), so each SGD step uses only the current batch's gradient (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

base = torch.rand(16, 16)
templates = 0.6 * base + 0.4 * torch.rand(10, 16, 16).round()
templates = nn.functional.avg_pool2d(templates.unsqueeze(1), 3, stride=1, padding=1).squeeze(1)


def thumbnails(n):
    y = torch.randint(0, 10, (n,))
    x = templates[y] * (0.7 + 0.6 * torch.rand(n, 1, 1)) + 0.45 * torch.randn(n, 16, 16)
    return x.reshape(n, -1), y


X_train, y_train = thumbnails(10000)
X_test, y_test = thumbnails(1500)
net = nn.Linear(256, 10)
loss_fn = nn.CrossEntropyLoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.1)
batch_size = 256

for epoch in range(8):
    order = torch.randperm(len(X_train))
    total, count = 0.0, 0
    for i in range(0, len(order), batch_size):
        idx = order[i:i + batch_size]
        l = loss_fn(net(X_train[idx]), y_train[idx])
        trainer.zero_grad()
        l.backward()
        trainer.step()
        total += l.item() * len(idx)
        count += len(idx)
    with torch.no_grad():
        logits = net(X_test)
        test_loss = loss_fn(logits, y_test).item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch + 1}, train loss {total / count:.4f}, test loss {test_loss:.4f}, test acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
