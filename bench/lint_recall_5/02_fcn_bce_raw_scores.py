# Source: https://github.com/yunlongdong/FCN-pytorch/issues/7
# Pitfall: the FCN's last 1x1 convolution emits unbounded scores that go straight into nn.BCELoss;
#          BCELoss expects probabilities in [0, 1], so the loss is invalid (negative or error) and training breaks.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class MiniFCN(nn.Module):
    def __init__(self, n_class=2):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
        )
        self.decoder = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.classifier = nn.Conv2d(16, n_class, kernel_size=1)

    def forward(self, x):
        return self.classifier(torch.relu(self.decoder(self.encoder(x))))


def train(num_epochs=5):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    fcn = MiniFCN().to(device)
    images = torch.randn(40, 3, 64, 64)
    masks = torch.randint(0, 2, (40, 2, 64, 64)).float()
    loader = DataLoader(TensorDataset(images, masks), batch_size=4, shuffle=True)
    criterion = nn.BCELoss()
    optimizer = torch.optim.SGD(fcn.parameters(), lr=1e-2, momentum=0.7)
    for epoch in range(num_epochs):
        epoch_loss = 0.0
        for img, mask in loader:
            img, mask = img.to(device), mask.to(device)
            optimizer.zero_grad()
            output = fcn(img)
            loss = criterion(output, mask)  # expect: bce-on-logits
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print("epoch", epoch, "loss", epoch_loss / len(loader))


if __name__ == "__main__":
    train()
