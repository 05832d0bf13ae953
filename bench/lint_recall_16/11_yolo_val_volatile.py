"""Detector training script with a per-epoch validation pass and best-checkpoint saving."""
import torch
import torch.nn as nn
from torch.autograd import Variable
from torch.utils.data import DataLoader, TensorDataset


class TinyYolo(nn.Module):
    def __init__(self, S=7, B=2, C=20):
        super().__init__()
        self.S, self.B, self.C = S, B, C
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.LeakyReLU(0.1),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.LeakyReLU(0.1),
            nn.AdaptiveAvgPool2d(S),
        )
        self.head = nn.Conv2d(32, B * 5 + C, 1)

    def forward(self, x):
        return self.head(self.features(x)).permute(0, 2, 3, 1)


def main(num_epochs=3, batch_size=8):
    use_gpu = torch.cuda.is_available()
    net = TinyYolo()
    if use_gpu:
        net = net.cuda()
    criterion = nn.SmoothL1Loss()
    optimizer = torch.optim.SGD(net.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)

    train_dataset = TensorDataset(torch.randn(64, 3, 112, 112), torch.randn(64, 7, 7, 30))
    test_dataset = TensorDataset(torch.randn(16, 3, 112, 112), torch.randn(16, 7, 7, 30))
    train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True, num_workers=2)
    test_loader = DataLoader(test_dataset, batch_size=batch_size, shuffle=False, num_workers=2)

    best_test_loss = float("inf")
    for epoch in range(num_epochs):
        net.train()
        for images, target in train_loader:
            if use_gpu:
                images, target = images.cuda(), target.cuda()
            pred = net(images)
            loss = criterion(pred, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        validation_loss = 0.0
        net.eval()
        for images, target in test_loader:
            images = Variable(images, volatile=True)  # expect: volatile-variable
            target = Variable(target)
            if use_gpu:
                images, target = images.cuda(), target.cuda()
            pred = net(images)
            loss = criterion(pred, target)
            validation_loss += loss.item()
        validation_loss /= len(test_loader)

        if best_test_loss > validation_loss:
            best_test_loss = validation_loss
            print("get best test loss %.5f" % best_test_loss)
            torch.save(net.state_dict(), "best.pth")


if __name__ == "__main__":
    main()
