# Source: https://github.com/Lackel/DPN/issues/1
# Pitfall: the prototype-assignment probabilities are computed with softmax over dim 0 (the
#   batch) instead of dim 1 (the prototypes) and then read per sample; the authors said dim should be 1.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PrototypeHead(nn.Module):
    def __init__(self, feat_dim, n_prototypes, temperature=0.1):
        super().__init__()
        self.prototypes = nn.Parameter(torch.randn(n_prototypes, feat_dim))
        self.temperature = temperature

    def forward(self, feats):
        feats = F.normalize(feats, dim=1)
        protos = F.normalize(self.prototypes, dim=1)
        return feats @ protos.t() / self.temperature      # (B, K)


def prototype_loss(head, feats, pseudo_labels):
    sims = head(feats)
    log_probs = F.log_softmax(sims, dim=0)  # expect: softmax-over-batch-dim
    picked = log_probs.gather(1, pseudo_labels.unsqueeze(1)).squeeze(1)
    return -picked.mean()


def train_epoch(encoder, head, loader, optimizer, device):
    encoder.train()
    head.train()
    for input_ids, attention_mask, pseudo_labels in loader:
        input_ids = input_ids.to(device)
        attention_mask = attention_mask.to(device)
        pseudo_labels = pseudo_labels.to(device)
        feats = encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state[:, 0]
        loss = prototype_loss(head, feats, pseudo_labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
