# Source: https://github.com/pytorch/examples/commit/c053f31a0577517c85136faf41802598d551a519
# Pitfall: the digit classifier calls F.dropout(x) in forward() without training=self.training, so dropout
#   keeps zeroing half the hidden units when the model is evaluated after model.eval().
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 10, kernel_size=5)
        self.c2 = nn.Conv2d(10, 20, kernel_size=5)
        self.c2_drop = nn.Dropout2d()
        self.l1 = nn.Linear(320, 50)
        self.l2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.c1(x), 2))
        x = F.relu(F.max_pool2d(self.c2_drop(self.c2(x)), 2))
        x = x.view(-1, 320)
        x = F.relu(self.l1(x))
        x = F.dropout(x)  # expect: functional-dropout-always-on
        return F.log_softmax(self.l2(x), dim=1)


def run(args, train_loader, test_loader):
    model = SmallConvNet()
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)
    for epoch in range(1, args.epochs + 1):
        model.train()
        for data, target in train_loader:
            opt.zero_grad()
            loss = F.nll_loss(model(data), target)
            loss.backward()
            opt.step()
        model.eval()
        correct = 0
        with torch.no_grad():
            for data, target in test_loader:
                correct += model(data).argmax(1).eq(target).sum().item()
        print(f"epoch {epoch}: {correct}/{len(test_loader.dataset)}")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--momentum", type=float, default=0.5)
    p.add_argument("--epochs", type=int, default=10)
