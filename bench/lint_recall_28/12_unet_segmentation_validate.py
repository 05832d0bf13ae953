"""Cell segmentation U-Net with batch norm and dropout; per-epoch validation of the loss."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def double_conv(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


class CleanU_Net(nn.Module):
    def __init__(self, in_channels=1, out_channels=2):
        super().__init__()
        self.down1 = double_conv(in_channels, 32)
        self.down2 = double_conv(32, 64)
        self.pool = nn.MaxPool2d(2)
        self.drop = nn.Dropout2d(0.3)
        self.up = nn.ConvTranspose2d(64, 32, 2, stride=2)
        self.merge = double_conv(64, 32)
        self.out = nn.Conv2d(32, out_channels, 1)

    def forward(self, x):
        d1 = self.down1(x)
        d2 = self.drop(self.down2(self.pool(d1)))
        u = self.up(d2)
        return self.out(self.merge(torch.cat([u, d1], dim=1)))


def train_model(model, data_train, criterion, optimizer):
    model.train()
    for images, masks in data_train:
        outputs = model(images)
        loss = criterion(outputs, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def validate_model(model, data_val, criterion):
    total_val_loss = 0.0
    for images, masks in data_val:
        with torch.no_grad():
            outputs = model(images)  # expect: validation-in-train-mode
            total_val_loss += criterion(outputs, masks).item()
    return total_val_loss / len(data_val)


if __name__ == "__main__":
    x = torch.randn(16, 1, 64, 64)
    y = torch.randint(0, 2, (16, 64, 64))
    train_dl = DataLoader(TensorDataset(x, y), batch_size=4, shuffle=True)
    val_dl = DataLoader(TensorDataset(x, y), batch_size=4)
    net = CleanU_Net()
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.RMSprop(net.parameters(), lr=1e-3)
    for epoch in range(2):
        train_model(net, train_dl, loss_fn, opt)
        print(epoch, validate_model(net, val_dl, loss_fn))
