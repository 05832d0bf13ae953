"""Traffic-sign classifier (a small CNN on 16x16 grey crops of 10 sign types) trained with hand-written mini-batching: at the start of every epoch the script reshuffles the training images and the training labels "to keep batches random" -- but it draws one permutation for the images and a second, independent one for the labels, so after the shuffle image i sits next to the label of some unrelated crop. The network is fitted to labels that no longer correspond to its inputs, a different random pairing each epoch, and never learns the sign types; the test accuracy stays near chance.

Source: https://github.com/udacity/sdc-issue-reports/issues/1326 (T1 L7 P33 Quiz doesn't verify training set and labels match)
Report: "In keeping with spirit of good statistical practice, I shuffle the data before batching. I
noticed you can shuffle the features and labels separately (different shuffle orders) and still
pass the quiz." (reviewer: "The best approach to this would probably be to create a new array and
pass feature and label sets into that array, then shuffle. This way the stay together.")
Reproduced with 4,000 synthetic sign crops (10 binary glyph prototypes, random brightness and
pixel noise), a CNN conv(1->8)-pool-conv(8->16)-pool-linear(256->10), Adam lr 2e-3, batches of
64 sliced by hand for 6 epochs, images and labels each shuffled with their own torch.randperm.
The printed loss is the cross-entropy on 1,000 held-out crops, `acc` the accuracy there.

expect: label-misaligned
symptom: acc-below 0.3
batch: 19
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

CLASSES, SIDE, BATCH, EPOCHS = 10, 16, 64, 6
glyphs = (torch.rand(CLASSES, 1, SIDE, SIDE) < 0.3).float()


def crops(n):
    y = torch.randint(0, CLASSES, (n,))
    light = 0.6 + 0.8 * torch.rand(n, 1, 1, 1)
    x = light * glyphs[y] + 0.45 * torch.randn(n, 1, SIDE, SIDE)
    return x, y


X_train, y_train = crops(4000)
X_test, y_test = crops(1000)

model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(16 * 4 * 4, CLASSES),
)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(EPOCHS):
    X_train = X_train[torch.randperm(len(X_train))]
    y_train = y_train[torch.randperm(len(y_train))]
    model.train()
    running = 0.0
    for start in range(0, len(X_train), BATCH):
        xb, yb = X_train[start:start + BATCH], y_train[start:start + BATCH]
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item() * len(xb)
    model.eval()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.cross_entropy(logits, y_test).item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} train {running / len(X_train):.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
