# Source: https://github.com/ifzhang/FairMOT/issues/125
# Pitfall: the re-ID identity classifier (an nn.Linear inside the loss module) is created by the trainer after the
#   optimizer was built from model.parameters(), so its weights are never updated (maintainer: add it to the optimizer).
# Reproduced in our own words, not the original code.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class JointDetReIDLoss(nn.Module):
    def __init__(self, emb_dim, num_ids):
        super().__init__()
        self.classifier = nn.Linear(emb_dim, num_ids)
        self.emb_scale = math.sqrt(2) * math.log(num_ids - 1)
        self.s_det = nn.Parameter(-1.85 * torch.ones(1))
        self.s_id = nn.Parameter(-1.05 * torch.ones(1))

    def forward(self, outputs, batch):
        det_loss = F.l1_loss(outputs["wh"], batch["wh"]) + F.mse_loss(outputs["hm"].sigmoid(), batch["hm"])
        emb = outputs["id"][batch["reg_mask"] > 0]
        ids = batch["ids"][batch["reg_mask"] > 0]
        id_logits = self.classifier(self.emb_scale * F.normalize(emb, dim=1))
        id_loss = F.cross_entropy(id_logits, ids, ignore_index=-1)
        loss = torch.exp(-self.s_det) * det_loss + torch.exp(-self.s_id) * id_loss + (self.s_det + self.s_id)
        return 0.5 * loss, {"det": det_loss.item(), "id": id_loss.item()}


class MotTrainer:
    def __init__(self, model, optimizer, emb_dim=128, num_ids=14455, device="cuda"):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.device = device
        self.loss = JointDetReIDLoss(emb_dim, num_ids).to(device)  # expect: optimizer-misses-params

    def train_epoch(self, loader, epoch):
        self.model.train()
        for it, batch in enumerate(loader):
            batch = {k: v.to(self.device) for k, v in batch.items()}
            outputs = self.model(batch["input"])
            loss, stats = self.loss(outputs, batch)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            if it % 50 == 0:
                print(f"epoch {epoch} iter {it}: loss {loss.item():.3f} det {stats['det']:.3f} id {stats['id']:.3f}")


def build(model, lr=1e-4):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    return MotTrainer(model, optimizer)
