# Source: https://github.com/heshuting555/AICITY2020_DMT_VehicleReID/issues/18
# Pitfall: the re-identification trainer steps the learning-rate scheduler at the top of each epoch,
#   before any optimizer.step(); since PyTorch 1.1 this skips the first value of the warm-up schedule.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReIDHead(nn.Module):
    def __init__(self, backbone, feat_dim=2048, num_ids=333):
        super().__init__()
        self.backbone = backbone
        self.bnneck = nn.BatchNorm1d(feat_dim)
        self.classifier = nn.Linear(feat_dim, num_ids, bias=False)

    def forward(self, x):
        feat = self.backbone(x)
        return self.classifier(self.bnneck(feat)), feat


def triplet_loss(feat, pids, margin=0.3):
    dist = torch.cdist(feat, feat)
    same = pids.unsqueeze(0) == pids.unsqueeze(1)
    hardest_pos = (dist * same.float()).max(1)[0]
    hardest_neg = (dist + 1e5 * same.float()).min(1)[0]
    return F.relu(hardest_pos - hardest_neg + margin).mean()


def do_train(model, loader, epochs=120, device="cuda"):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[40, 70], gamma=0.1)
    model.to(device)
    for epoch in range(1, epochs + 1):
        scheduler.step()  # expect: scheduler-before-optimizer
        model.train()
        for imgs, pids in loader:
            imgs, pids = imgs.to(device), pids.to(device)
            optimizer.zero_grad()
            score, feat = model(imgs)
            loss = F.cross_entropy(score, pids) + triplet_loss(feat, pids)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} lr {optimizer.param_groups[0]['lr']:.2e} loss {loss.item():.3f}")
