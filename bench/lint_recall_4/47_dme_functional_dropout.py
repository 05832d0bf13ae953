# Source: https://github.com/facebookresearch/DME/issues/3
# Pitfall: the dynamic meta-embedding module calls F.dropout(out, p=...) without
#   training=self.training, so embedding dropout is still applied at inference; fixed upstream.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DynamicMetaEmbedding(nn.Module):
    def __init__(self, pretrained, proj_dim=256, emb_dropout=0.2):
        super().__init__()
        self.embedders = nn.ModuleList(nn.Embedding.from_pretrained(w, freeze=True) for w in pretrained)
        self.projectors = nn.ModuleList(nn.Linear(w.size(1), proj_dim) for w in pretrained)
        self.attn = nn.Linear(proj_dim, 1)
        self.emb_dropout = emb_dropout

    def forward(self, words):
        projected = torch.stack([p(e(words)) for e, p in zip(self.embedders, self.projectors)], dim=2)
        weights = torch.softmax(self.attn(projected), dim=2)
        out = (weights * projected).sum(dim=2)
        out = F.dropout(out, p=self.emb_dropout)  # expect: functional-dropout-always-on
        return out


class SentenceClassifier(nn.Module):
    def __init__(self, pretrained, n_classes, hidden=512):
        super().__init__()
        self.dme = DynamicMetaEmbedding(pretrained)
        self.encoder = nn.LSTM(256, hidden, batch_first=True, bidirectional=True)
        self.cls = nn.Linear(2 * hidden, n_classes)

    def forward(self, words):
        h, _ = self.encoder(self.dme(words))
        return self.cls(h.max(dim=1).values)


def evaluate(model, loader):
    model.eval()
    correct, total = 0, 0
    with torch.no_grad():
        for words, labels in loader:
            correct += (model(words).argmax(-1) == labels).sum().item()
            total += labels.numel()
    return correct / max(total, 1)
