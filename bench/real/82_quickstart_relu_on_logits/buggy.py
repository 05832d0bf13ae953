"""PyTorch quickstart FashionMNIST classifier whose last layer is followed by a ReLU, so
CrossEntropyLoss receives rectified logits (every negative class score clipped to 0).

Source: https://github.com/pytorch/tutorials/pull/1644 (fix bug on model definition part of introduction)
Report: "This PR is related to issue https://github.com/pytorch/tutorials/issues/1526. A relu
layer was inserted just before the cross entropy error was calculated, and it seemed that the
loss was not calculated correctly, so I removed the relu layer." Maintainer: "Good catch! Thank
you ... for fixing this". The quickstart's NeuralNetwork was Flatten -> Linear(784, 512) -> ReLU
-> Linear(512, 512) -> ReLU -> Linear(512, 10) -> ReLU, trained with nn.CrossEntropyLoss and
SGD(lr=1e-3), batch 64, through DataLoaders with the tutorial's train()/test() functions.
Reproduced with that model, loss, optimizer and loops on synthetic 28x28 "clothing" images
(10 classes of smooth garment silhouettes with texture and noise, pixels in [0, 1]); `acc` is
the test accuracy.

expect: loss-mismatch
symptom: acc-below 0.92
batch: 4
"""
import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

shapes = F.interpolate(torch.rand(10, 1, 5, 5), size=28, mode="bilinear", align_corners=False)[:, 0]
shapes = (shapes > 0.5).float()


def make(n):
    y = torch.randint(0, 10, (n,))
    shade = 0.4 + 0.6 * torch.rand(n, 1, 1)
    x = shapes[y] * shade * (0.8 + 0.2 * torch.rand(n, 28, 28)) + 0.3 * torch.rand(n, 28, 28)
    return x.clamp(0, 1).unsqueeze(1), y


training_data = TensorDataset(*make(12000))
test_data = TensorDataset(*make(2000))
batch_size = 64
train_dataloader = DataLoader(training_data, batch_size=batch_size, shuffle=True)
test_dataloader = DataLoader(test_data, batch_size=batch_size)


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
            nn.ReLU()
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork()
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
train_losses = []


def train(dataloader, model, loss_fn, optimizer):
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_losses.append(loss.item())


def test(dataloader, model, loss_fn):
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= len(dataloader)
    correct /= len(dataloader.dataset)
    print(f"Test Error: \n Accuracy: {(100 * correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
    return test_loss, correct


epochs = 5
for t in range(epochs):
    print(f"Epoch {t + 1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    test_loss, correct = test(test_dataloader, model, loss_fn)
print(f"final_loss={sum(train_losses[-50:]) / 50:.6g} acc={correct:.4f}")
