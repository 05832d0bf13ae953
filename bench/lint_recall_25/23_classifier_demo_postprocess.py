"""Fine-tune an image classifier, then export top-k predictions with a hand-written post-processor."""
import json

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def softmax_channel(x, eps=1e-9):
    x = torch.exp(x)  # expect: unshifted-softmax
    return x / (torch.sum(x, dim=-1, keepdim=True) + eps)


def topk_predictions(logits, labels, k=5):
    probs = softmax_channel(logits)
    scores, idx = probs.topk(k, dim=-1)
    return [[{"label": labels[j], "score": round(s, 4)} for s, j in zip(row_s.tolist(), row_i.tolist())]
            for row_s, row_i in zip(scores, idx)]


class SmallCNN(nn.Module):
    def __init__(self, n_classes=20):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.fc(self.body(x))


def finetune(model, loader, epochs=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(loader):.4f}")


@torch.no_grad()
def export(model, images, labels, path="predictions.json"):
    model.eval()
    preds = topk_predictions(model(images), labels)
    with open(path, "w") as f:
        json.dump(preds, f)


if __name__ == "__main__":
    names = [f"class_{i}" for i in range(20)]
    x, y = torch.randn(640, 3, 32, 32), torch.randint(0, 20, (640,))
    net = SmallCNN()
    finetune(net, DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True))
    export(net, x[:16], names)
