"""Image-text retrieval head: score every caption against every image, cross-entropy on the match."""
import torch
from torch import nn
import torch.nn.functional as F


class RetrievalHead(nn.Module):
    def __init__(self, text_dim, image_dim, joint_dim):
        super().__init__()
        self.text_proj = nn.Linear(text_dim, joint_dim)
        self.image_proj = nn.Linear(image_dim, joint_dim)
        self.temperature = nn.Parameter(torch.tensor(0.07))

    def forward(self, text_pooled, image_pooled, labels=None):
        t = F.normalize(self.text_proj(text_pooled), dim=-1)
        v = F.normalize(self.image_proj(image_pooled), dim=-1)
        logits = t @ v.t() / self.temperature
        outputs = {"logits": logits}
        if labels is not None:
            labels.to(outputs["logits"].device)  # expect: tensor-op-result-discarded
            outputs["loss"] = F.cross_entropy(outputs["logits"], labels)
        return outputs


def train_step(head, text_pooled, image_pooled, optimizer):
    head.train()
    labels = torch.arange(text_pooled.shape[0])
    optimizer.zero_grad()
    out = head(text_pooled, image_pooled, labels)
    out["loss"].backward()
    optimizer.step()
    return out["loss"].item()
