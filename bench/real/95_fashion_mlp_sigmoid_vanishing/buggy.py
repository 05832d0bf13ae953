"""FashionMNIST MLP with sigmoid activations in all four hidden layers, trained with SGD: the gradients vanish and it stays at chance.

Source: https://github.com/phlippe/uvadlc_notebooks/issues/119 (Tutorial 3 test accuracy for the model with sigmoid activation function)
Report: in the activation-functions tutorial, the network with sigmoid activations gets a very
poor test accuracy; the maintainer: "many continued to fail even after longer trainings. You
need to be a bit lucky that the gradients don't cancel each other out too much in the early
layers and actually start learning" -- the tutorial's point is that sigmoid's vanishing
gradients stop the deep MLP from learning while ReLU trains it. Reproduced with the tutorial's
BaseNetwork (784 -> 512 -> 256 -> 256 -> 128 -> 10, default init), SGD(lr=1e-2,
momentum=0.9), batch 256, on synthetic 28 x 28 ten-class "clothes" images; `acc` is the
test accuracy.

expect: vanishing-gradient
symptom: acc-below 0.3
batch: 5
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

protos = F.avg_pool2d((torch.rand(10, 1, 28, 28) < 0.3).float(), 5, 1, 2).squeeze(1)


def make(n):
    y = torch.randint(0, 10, (n,))
    x = protos[y] + 0.35 * torch.randn(n, 28, 28)
    x = (x - 0.5) / 0.5                                     # transforms.Normalize((0.5,), (0.5,))
    return TensorDataset(x, y)


class BaseNetwork(nn.Module):
    def __init__(self, act_fn, input_size=784, num_classes=10, hidden_sizes=[512, 256, 256, 128]):
        super().__init__()
        layers = []
        layer_sizes = [input_size] + hidden_sizes
        for layer_index in range(1, len(layer_sizes)):
            layers += [nn.Linear(layer_sizes[layer_index - 1], layer_sizes[layer_index]), act_fn]
        layers += [nn.Linear(layer_sizes[-1], num_classes)]
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x.view(x.size(0), -1))


train_loader = DataLoader(make(10000), batch_size=256, shuffle=True, drop_last=True)
test_set = make(2000)
model = BaseNetwork(act_fn=nn.Sigmoid())
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
loss_module = nn.CrossEntropyLoss()
losses = []
for epoch in range(5):
    model.train()
    for imgs, labels in train_loader:
        preds = model(imgs)
        loss = loss_module(preds, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-39:]) / 39:.4f}")

model.eval()
with torch.no_grad():
    acc = (model(test_set.tensors[0]).argmax(1) == test_set.tensors[1]).float().mean().item()
print(f"final_loss={sum(losses[-20:]) / 20:.6g} acc={acc:.4f}")
