"""A softmax layer at the end of the model, then nn.CrossEntropyLoss: the loss sits near ln(10).

Source: https://discuss.pytorch.org/t/cross-entropy-loss-is-not-decreasing/43814 (answer #16)
Report: "when I print my loss it does not decrease at all, it always stays the same, 2.30";
solution 1: do not pass the softmax output into CrossEntropyLoss (it applies log_softmax itself).

expect: loss-mismatch
symptom: final-loss-ratio 1.5
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

# ten "digit" classes: 8x8 images made of a class template plus noise
templates = torch.rand(10, 1, 8, 8)
labels = torch.randint(0, 10, (3000,))
images = templates[labels] + 0.3 * torch.randn(3000, 1, 8, 8)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.fc1 = nn.Linear(8 * 4 * 4, 64)
        self.fc2 = nn.Linear(64, 10)
        self.out = nn.Softmax(dim=1)

    def forward(self, x):
        x = torch.max_pool2d(torch.relu(self.conv(x)), 2)
        x = torch.relu(self.fc1(x.flatten(1)))
        return self.out(self.fc2(x))


model = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(3):
    epoch_losses = []
    for i in range(0, 3000, 32):
        optimizer.zero_grad()
        loss = criterion(model(images[i:i + 32]), labels[i:i + 32])
        loss.backward()
        optimizer.step()
        epoch_losses.append(loss.item())
    print(f"epoch {epoch} loss = {sum(epoch_losses) / len(epoch_losses)}")

with torch.no_grad():
    acc = (model(images).argmax(1) == labels).float().mean().item()
print(f"final_loss={sum(epoch_losses[-20:]) / 20:.6g} acc={acc:.4f}")
