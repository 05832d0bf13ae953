# Source: https://github.com/pytorch/pytorch/issues/1258
# Pitfall: The licence-plate model is trained with nn.CrossEntropyLoss against one-hot float target vectors (253 columns) instead of class indices; old PyTorch rejected the DoubleTensor, and current PyTorch silently treats the rows as soft probabilities over 253 classes, which is not the per-character task.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CHARS = 7
N_SYMBOLS = 36
OUT_DIM = 1 + N_CHARS * N_SYMBOLS


class PlateNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 48, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(48, 64, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool2d((4, 8)),
        )
        self.fc = nn.Linear(64 * 4 * 8, OUT_DIM)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def train(model, loader, epochs=10):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        model.train()
        for images, char_idx in loader:
            targets = F.one_hot(char_idx, OUT_DIM).double()
            optimizer.zero_grad()
            output = model(images)
            loss = criterion(output, targets)  # expect: one-hot-target
            loss.backward()
            optimizer.step()
