"""SimCLR-style contrastive pre-training: two augmented views per image, NT-Xent loss."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.transforms as T


class TwoViews:
    def __init__(self, size):
        self.t = T.Compose([
            T.RandomResizedCrop(size),
            T.RandomHorizontalFlip(),
            T.RandomApply([T.ColorJitter(0.8, 0.8, 0.8, 0.2)], p=0.8),
            T.RandomGrayscale(p=0.2),
            T.ToTensor(),
        ])

    def __call__(self, x):
        return self.t(x), self.t(x)


class NTXent(nn.Module):
    def __init__(self, temperature=0.5):
        super().__init__()
        self.temperature = temperature

    def forward(self, z_i, z_j):
        z = F.normalize(torch.cat([z_i, z_j]), dim=1)
        sim = z @ z.T / self.temperature
        n = z_i.size(0)
        sim.fill_diagonal_(float("-inf"))
        targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
        return F.cross_entropy(sim, targets)


class SimCLR(nn.Module):
    def __init__(self, projection_dim=64):
        super().__init__()
        self.encoder = torchvision.models.resnet18(num_classes=10)
        n_features = self.encoder.fc.in_features
        self.encoder.fc = nn.Identity()
        self.projector = nn.Sequential(nn.Linear(n_features, n_features), nn.ReLU(),
                                       nn.Linear(n_features, projection_dim))

    def forward(self, x_i, x_j):
        h_i, h_j = self.encoder(x_i), self.encoder(x_j)
        return self.projector(h_i), self.projector(h_j)


def train(train_loader, model, criterion, optimizer):
    model.train()
    loss_epoch = 0.0
    for step, ((x_i, x_j), _) in enumerate(train_loader):
        optimizer.zero_grad()
        x_i = x_i.cuda(non_blocking=True)  # expect: dataloader-blocking
        x_j = x_j.cuda()
        z_i, z_j = model(x_i, x_j)
        loss = criterion(z_i, z_j)
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print(f"Step [{step}/{len(train_loader)}]\t Loss: {loss.item()}")
        loss_epoch += loss.item()
    return loss_epoch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="./datasets")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=100)
    args = parser.parse_args()

    dataset = torchvision.datasets.CIFAR10(args.data, download=True, transform=TwoViews(32))
    train_loader = torch.utils.data.DataLoader(dataset, batch_size=args.batch_size, shuffle=True,
                                               drop_last=True, num_workers=args.workers)
    model = SimCLR().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    criterion = NTXent()
    for epoch in range(args.epochs):
        loss_epoch = train(train_loader, model, criterion, optimizer)
        print(f"Epoch [{epoch}/{args.epochs}]\t Loss: {loss_epoch / max(len(train_loader), 1)}")
