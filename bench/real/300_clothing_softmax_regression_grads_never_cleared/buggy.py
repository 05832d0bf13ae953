"""Softmax-regression classifier for small clothing thumbnails (the d2l chapter-2 style exercise: flatten the image, one linear layer, cross-entropy, SGD), written by hand with a slicing loop over a shuffled index. The loop calls backward and step but never zeroes the gradients, so every step applies the sum of all gradients seen so far: the effective step grows linearly with the step count, the weights swing further and further along stale directions and the held-out loss climbs epoch after epoch instead of falling.

Source: https://github.com/Miraclelucy/dive_into_deep_learning/issues/6 (提个问题，ch02的04)
Report: "为什么optimizer在每个batch之后不需要把梯度清零，并且可以得到正确结果 我写了个类似的代码，但是不加
optimizer.zero_grad()会导致正确率越训越低直到10%" (why does the notebook work without clearing the
gradients after each batch? I wrote similar code, and without optimizer.zero_grad() the accuracy gets
lower and lower, down to 10%). Reproduced with 10,000 synthetic 16x16 thumbnails of 10 garment classes
(class templates plus per-image shifts in brightness and noise), a single nn.Linear(256, 10),
SGD lr 0.1, batches of 256 sliced by hand, 8 epochs. The printed loss is the cross-entropy on
1,500 held-out thumbnails, `acc` the accuracy there.

expect: missing-zero-grad
symptom: final-loss-ratio 3
batch: 18
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
