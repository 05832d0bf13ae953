# Source: https://github.com/Azure/MS-AMP/pull/45
# Pitfall: The MNIST example steps the optimizer through scaler.step(optimizer) but never calls scaler.update(); the scale is never adjusted and the next iteration fails with "step() has already been called since the last update()".
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv2(F.relu(self.conv1(x)))), 2)
        x = F.relu(self.fc1(torch.flatten(x, 1)))
        return F.log_softmax(self.fc2(x), dim=1)


def train(model, device, train_loader, optimizer, scaler, epoch, log_interval=10):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            output = model(data)
            loss = F.nll_loss(output, target)
        scaler.scale(loss).backward()
        scaler.step(optimizer)  # expect: scaler-update-missing
        if batch_idx % log_interval == 0:
            print(f"epoch {epoch} [{batch_idx * len(data)}/{len(train_loader.dataset)}] loss {loss.item():.6f}")
