# Source: https://github.com/meilfang/LMFD-PAD/pull/1
# Pitfall: the attack-detection branch ends in a Sigmoid, and its output goes to a focal loss built on
#          F.binary_cross_entropy_with_logits, which applies the sigmoid again; scores are squeezed into [0.5, 0.73].
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class WeightedFocalLoss(nn.Module):
    def __init__(self, alpha=0.25, gamma=2.0):
        super().__init__()
        self.alpha, self.gamma = alpha, gamma

    def forward(self, inputs, targets):
        bce = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
        pt = torch.exp(-bce)
        at = torch.where(targets > 0.5, torch.full_like(targets, self.alpha), torch.full_like(targets, 1 - self.alpha))
        return (at * (1 - pt) ** self.gamma * bce).mean()


class DualStreamPAD(nn.Module):
    def __init__(self):
        super().__init__()
        self.rgb = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.freq = nn.Sequential(nn.Conv2d(1, 32, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.classifier = nn.Sequential(nn.Linear(64, 1), nn.Sigmoid())

    def forward(self, img, spectrum):
        return self.classifier(torch.cat([self.rgb(img), self.freq(spectrum)], dim=1)).squeeze(1)


def train(epochs=3):
    net = DualStreamPAD()
    criterion = WeightedFocalLoss()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4, weight_decay=5e-4)
    for epoch in range(epochs):
        net.train()
        img, spec = torch.randn(8, 3, 64, 64), torch.randn(8, 1, 64, 64)
        label = torch.randint(0, 2, (8,)).float()
        optimizer.zero_grad()
        score = net(img, spec)
        loss = criterion(score, label)  # expect: sigmoid-before-bce-with-logits
        loss.backward()
        optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    train()
