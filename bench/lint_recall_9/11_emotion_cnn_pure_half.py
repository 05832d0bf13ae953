# Source: https://github.com/pytorch/pytorch/issues/8860
# Pitfall: the whole emotion CNN is cast with .half() and trained with Adam on float16 gradients and no
#   loss scaling; small gradients flush to zero, large ones overflow, and the loss becomes NaN after a few steps.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class FaceEmotionNet(nn.Module):
    def __init__(self, n_classes=7):
        super().__init__()
        chans = [1, 32, 64, 96, 128, 128]
        layers = []
        for c_in, c_out in zip(chans[:-1], chans[1:]):
            layers += [nn.Conv2d(c_in, c_out, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2)]
        self.conv = nn.Sequential(*layers)
        self.fc1 = nn.Linear(128, 256)
        self.fc2 = nn.Linear(256, n_classes)

    def forward(self, x):
        x = self.conv(x).flatten(1)
        return self.fc2(torch.relu(self.fc1(x)))


def train(loader, epochs=30):
    device = torch.device("cuda")
    net = FaceEmotionNet().to(device).half()  # expect: unscaled-fp16
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3, eps=1e-4)
    for epoch in range(epochs):
        net.train()
        for faces, labels in loader:
            faces = faces.to(device).half()
            labels = labels.to(device)
            optimizer.zero_grad()
            loss = criterion(net(faces), labels)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    return net
