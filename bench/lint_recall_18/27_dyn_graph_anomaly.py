"""Dynamic-graph anomaly detection: GNN node states summarized by a small Transformer and a binary head."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score


class TransformerBinaryClassifier(nn.Module):
    def __init__(self, in_dim=128, d_model=128, nhead=4, num_layers=2):
        super().__init__()
        self.proj = nn.Linear(in_dim, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=256, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.classifier = nn.Linear(d_model, 1)
        self.sigmoid = nn.Sigmoid()

    def forward(self, seq, pad_mask):
        h = self.encoder(self.proj(seq), src_key_padding_mask=pad_mask)
        keep = (~pad_mask).unsqueeze(-1).float()
        mean_output = (h * keep).sum(dim=1) / keep.sum(dim=1).clamp_min(1.0)
        logits = self.classifier(mean_output)
        logits = self.sigmoid(logits).squeeze(-1)
        return logits


def criterion(logits, labels):
    loss_classify = F.binary_cross_entropy_with_logits(logits, labels, reduction="none")  # expect: sigmoid-before-bce-with-logits
    return torch.mean(loss_classify)


def train_epoch(model, loader, optimizer, device):
    model.train()
    total = 0.0
    for seq, pad_mask, labels in loader:
        seq, pad_mask, labels = seq.to(device), pad_mask.to(device), labels.float().to(device)
        optimizer.zero_grad()
        loss = criterion(model(seq, pad_mask), labels)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    scores, gold = [], []
    for seq, pad_mask, labels in loader:
        scores.append(model(seq.to(device), pad_mask.to(device)).cpu())
        gold.append(labels)
    return roc_auc_score(torch.cat(gold).numpy(), torch.cat(scores).numpy())
