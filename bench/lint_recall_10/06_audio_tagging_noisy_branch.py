# Source: https://github.com/OsciiArt/Freesound-Audio-Tagging-2019/issues/1
# Pitfall: the curated branch feeds logits to the BCE-with-logits criterion, but the noisy-label branch wraps
#   its output in sigmoid first, so that branch's loss is squashed twice and barely trains.
# Reproduced in our own words, not the original code.
import torch
from torch import nn, sigmoid


class TwoHeadTagger(nn.Module):
    def __init__(self, backbone, feat_dim=512, n_tags=80):
        super().__init__()
        self.backbone = backbone
        self.clean_head = nn.Linear(feat_dim, n_tags)
        self.noisy_head = nn.Linear(feat_dim, n_tags)

    def forward(self, mel):
        return self.clean_head(self.backbone(mel))

    def noisy(self, mel):
        return self.noisy_head(self.backbone(mel))


def run_epoch(model, clean_loader, noisy_loader, optimizer, device, noisy_weight=0.5):
    bce = nn.BCEWithLogitsLoss()
    model.train()
    totals = {"clean": 0.0, "noisy": 0.0}
    for (x, y), (xn, yn) in zip(clean_loader, noisy_loader):
        x, y = x.to(device), y.to(device)
        xn, yn = xn.to(device), yn.to(device)
        clean_loss = bce(model(x), y)
        noisy_out = model.noisy(xn)
        noisy_loss = bce(sigmoid(noisy_out), yn)  # expect: sigmoid-before-bce-with-logits
        loss = clean_loss + noisy_weight * noisy_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        totals["clean"] += clean_loss.item()
        totals["noisy"] += noisy_loss.item()
    return {k: v / max(len(clean_loader), 1) for k, v in totals.items()}


@torch.no_grad()
def lwlrap_inputs(model, loader, device):
    model.eval()
    scores, truths = [], []
    for x, y in loader:
        scores.append(torch.sigmoid(model(x.to(device))).cpu())
        truths.append(y)
    model.train()
    return torch.cat(scores), torch.cat(truths)
