# Source: https://github.com/allenai/allennlp/issues/2797
# Pitfall: The entailment loss takes softmax of the label logits and then torch.log of the
# probabilities; with large negative logits the softmax underflows to 0 and the loss becomes inf/NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class DecomposableEntailment(nn.Module):
    def __init__(self, embed, hidden=200, n_labels=3):
        super().__init__()
        self.embed = embed
        self.compare = nn.Sequential(nn.Linear(2 * embed.embedding_dim, hidden), nn.ReLU())
        self.classify = nn.Linear(2 * hidden, n_labels)

    def forward(self, premise, hypothesis, gold_onehot=None):
        p = self.embed(premise)
        h = self.embed(hypothesis)
        attn = torch.bmm(p, h.transpose(1, 2)).softmax(dim=-1)
        aligned = torch.bmm(attn, h)
        compared = self.compare(torch.cat([p, aligned], dim=-1))
        pooled = torch.cat([compared.sum(1), compared.max(1).values], dim=-1)
        label_logits = self.classify(pooled)
        out = {"logits": label_logits}
        if gold_onehot is not None:
            label_probs = torch.nn.functional.softmax(label_logits, dim=-1)
            neg_log = -torch.log(label_probs)  # expect: log-of-softmax
            out["loss"] = (neg_log * gold_onehot.float()).sum(-1).mean()
        return out
