# Source: https://github.com/kitzeslab/opensoundscape/issues/624
# Pitfall: class scores for each audio clip are turned into probabilities with torch's softmax and no dim,
#   relying on the deprecated implicit axis choice; the call warns and may normalise over the wrong axis.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class SpectrogramCNN(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(16, n_classes)

    def forward(self, spec):
        return self.head(self.conv(spec).flatten(1))


def predict(model, dataset, device="cpu"):
    loader = DataLoader(dataset, batch_size=16, shuffle=False)
    model.eval()
    scores = []
    with torch.no_grad():
        for spec, _ in loader:
            logits = model(spec.to(device))
            scores.append(nn.functional.softmax(logits))  # expect: softmax-without-dim
    model.train()
    return torch.cat(scores)
