# Source: https://github.com/ewrfcas/face_attribute_classification_pytorch/issues/1
# Pitfall: the classifier head applies functional dropout without passing training=self.training,
#   so model.eval() cannot switch it off and validation/test predictions stay randomly dropped.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class AttributeHead(nn.Module):
    def __init__(self, in_features=512, n_attributes=40, p=0.5):
        super().__init__()
        self.squeeze = nn.Linear(in_features, 256)
        self.out = nn.Linear(256, n_attributes)
        self.p = p

    def forward(self, feats):
        h = F.relu(self.squeeze(feats))
        h = F.dropout(h, p=self.p)  # expect: functional-dropout-always-on
        return self.out(h)


def evaluate(head, loader, device):
    head.eval()
    hits, seen = 0, 0
    with torch.no_grad():
        for feats, attrs in loader:
            feats, attrs = feats.to(device), attrs.to(device)
            logits = head(feats)
            predicted = (logits > 0).float()
            hits += (predicted == attrs).sum().item()
            seen += attrs.numel()
    head.train()
    return hits / max(seen, 1)


def train_step(head, optimizer, feats, attrs):
    optimizer.zero_grad()
    loss = F.binary_cross_entropy_with_logits(head(feats), attrs)
    loss.backward()
    optimizer.step()
    return loss.item()
