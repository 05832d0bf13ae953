# Source: https://github.com/bifold-pathomics/xMIL/pull/8
# Pitfall: the validation step turns the bag logits into probabilities and then feeds those probabilities
#   to cross_entropy, which applies log_softmax again; the validation loss is compressed and misleads early stopping.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionMIL(nn.Module):
    def __init__(self, d=384, n_classes=2):
        super().__init__()
        self.attn = nn.Sequential(nn.Linear(d, 128), nn.Tanh(), nn.Linear(128, 1))
        self.cls = nn.Linear(d, n_classes)

    def forward(self, bag):
        a = torch.softmax(self.attn(bag), dim=0)
        pooled = (a * bag).sum(dim=0, keepdim=True)
        return self.cls(pooled)


def validation_step(model, bags, labels):
    model.eval()
    losses, correct = [], 0
    with torch.no_grad():
        for bag, label in zip(bags, labels):
            logits = model(bag)
            probs = logits.softmax(dim=-1)
            losses.append(F.cross_entropy(probs, label.view(1)).item())  # expect: softmax-before-cross-entropy
            correct += int(probs.argmax(dim=-1).item() == label.item())
    model.train()
    return sum(losses) / max(len(losses), 1), correct / max(len(labels), 1)
