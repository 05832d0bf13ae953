"""DetCon-style self-supervised pretraining: mask-pooled embeddings contrasted across two views."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def mask_pool(features, masks):
    masks = masks.flatten(2).float()
    feats = features.flatten(2)
    area = masks.sum(dim=-1, keepdim=True).clamp(min=1.0)
    return torch.einsum("bmn,bcn->bmc", masks, feats) / area


class DetConBLoss(nn.Module):
    def __init__(self, temperature=0.1):
        super().__init__()
        self.temperature = temperature

    def forward(self, pred1, pred2, target1, target2):
        b, m, _ = pred1.shape
        pred1, pred2 = F.normalize(pred1, dim=-1), F.normalize(pred2, dim=-1)
        target1, target2 = F.normalize(target1, dim=-1), F.normalize(target2, dim=-1)
        labels = torch.arange(m, device=pred1.device).repeat(b)
        logits_ab = torch.einsum("bmd,bnd->bmn", pred1, target2).reshape(b * m, m) / self.temperature
        logits_ba = torch.einsum("bmd,bnd->bmn", pred2, target1).reshape(b * m, m) / self.temperature
        loss_a = F.cross_entropy(labels, logits_ab)  # expect: loss-arguments-swapped
        loss_b = F.cross_entropy(logits_ba, labels)
        return loss_a + loss_b


class DetCon(nn.Module):
    def __init__(self, dim=128):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 64, 3, padding=1))
        self.projector = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, dim))
        self.predictor = nn.Sequential(nn.Linear(dim, 256), nn.ReLU(), nn.Linear(256, dim))

    def forward(self, view, masks):
        pooled = mask_pool(self.backbone(view), masks)
        proj = self.projector(pooled)
        return self.predictor(proj), proj.detach()


def pretrain(model, loader, epochs=100, lr=1e-3):
    criterion = DetConBLoss()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-6)
    for epoch in range(epochs):
        model.train()
        for view1, view2, masks1, masks2 in loader:
            pred1, target1 = model(view1, masks1)
            pred2, target2 = model(view2, masks2)
            loss = criterion(pred1, pred2, target1, target2)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")
