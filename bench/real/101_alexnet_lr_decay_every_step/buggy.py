"""AlexNet-style ImageNet classifier whose step-decay schedule (divide the learning rate by 10) runs at every step of the first epoch instead of once per 10 epochs.

Source: https://github.com/matteo-dunnhofer/imagenet/issues/10 (loss progress)
Report: "after 3 epochs loss didnt change at all for me ... not dropping"; the reporter later:
"i had problem with learning rate. I modify code a bit and there was bug. I was reducing
learning rate by 10 every step, so learning rate was almost 0. When I correct it, loss was
doping down normally ... I started with learning rate 0.001. After 10 epochs i divide learning
rate by 10." Reproduced with the schedule check written inside the batch loop
(if epoch % 10 == 0: lr /= 10), which fires at every step of epoch 0, in an SGD-momentum
training of a small AlexNet-like CNN on synthetic 3 x 32 x 32 images of 20 classes
(DataLoader); `acc` is the held-out accuracy.

expect: lr-too-low
symptom: loss-above 2.5
batch: 5
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_CLASSES = 20
protos = torch.randn(N_CLASSES, 3, 8, 8).repeat_interleave(4, 2).repeat_interleave(4, 3)


def make(n):
    y = torch.randint(0, N_CLASSES, (n,))
    return TensorDataset(0.7 * protos[y] + torch.randn(n, 3, 32, 32), y)


model = nn.Sequential(
    nn.Conv2d(3, 16, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Dropout(0.5), nn.Linear(32 * 16, 128), nn.ReLU(), nn.Linear(128, N_CLASSES))

LEARNING_RATE, LR_DECAY_EPOCHS = 0.01, 10
train_loader = DataLoader(make(2500), batch_size=64, shuffle=True)
val_set = make(1000)
optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE, momentum=0.9, weight_decay=5e-4)
criterion = nn.CrossEntropyLoss()
lr = LEARNING_RATE
losses = []
for epoch in range(4):
    model.train()
    for images, labels in train_loader:
        if epoch % LR_DECAY_EPOCHS == 0:
            lr = lr / 10
            for group in optimizer.param_groups:
                group["lr"] = lr
        loss = criterion(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-40:]) / 40:.4f} lr {lr:.3g}")

model.eval()
with torch.no_grad():
    acc = (model(val_set.tensors[0]).argmax(1) == val_set.tensors[1]).float().mean().item()
print(f"final_loss={sum(losses[-40:]) / 40:.6g} acc={acc:.4f}")
