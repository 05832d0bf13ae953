# Source: https://github.com/Azure/MS-AMP/commit/61b601a4cb4b94d96fa63bc44bf2b90606760ed7
# Pitfall: the mixed-precision MNIST loop calls scaler.step(optimizer) every batch but never scaler.update(),
#   so the loss scale never adapts and the second step raises "step() has already been called since the last update()".
# Reproduced in our own words, not the original code.
import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class SmallConvNet(nn.Module):
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


def train(model, device, loader, optimizer, scaler, epoch, log_interval=50):
    model.train()
    for batch_idx, (data, target) in enumerate(loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            output = model(data)
        loss = F.nll_loss(output.float(), target)
        scaler.scale(loss).backward()
        scaler.step(optimizer)  # expect: scaler-update-missing
        if batch_idx % log_interval == 0:
            print(f"epoch {epoch} [{batch_idx * len(data)}/{len(loader.dataset)}] loss {loss.item():.4f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-3)
    args = ap.parse_args()
    device = torch.device("cuda")
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    loader = DataLoader(datasets.MNIST("data", train=True, download=True, transform=tf),
                        batch_size=64, shuffle=True, num_workers=2, pin_memory=True)
    model = SmallConvNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    scaler = torch.cuda.amp.GradScaler()
    for epoch in range(1, args.epochs + 1):
        train(model, device, loader, optimizer, scaler, epoch)


if __name__ == "__main__":
    main()
