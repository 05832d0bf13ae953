"""DETR-style detector training loop; mixed precision is optional and off by default."""
import math
import sys

import torch
import torch.nn as nn


class TinyDetector(nn.Module):
    def __init__(self, num_queries=20, num_classes=91, dim=128):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, dim, 16, stride=16), nn.ReLU())
        layer = nn.TransformerDecoderLayer(dim, 4, 256, batch_first=True)
        self.decoder = nn.TransformerDecoder(layer, 2)
        self.query = nn.Embedding(num_queries, dim)
        self.class_embed = nn.Linear(dim, num_classes + 1)
        self.bbox_embed = nn.Linear(dim, 4)

    def forward(self, images):
        mem = self.backbone(images).flatten(2).transpose(1, 2)
        q = self.query.weight.unsqueeze(0).expand(images.size(0), -1, -1)
        hs = self.decoder(q, mem)
        return {"pred_logits": self.class_embed(hs), "pred_boxes": self.bbox_embed(hs).sigmoid()}


def criterion(outputs, targets):
    loss_ce = nn.functional.cross_entropy(outputs["pred_logits"].flatten(0, 1), targets["labels"].flatten())
    loss_bbox = nn.functional.l1_loss(outputs["pred_boxes"], targets["boxes"])
    return {"loss_ce": loss_ce, "loss_bbox": loss_bbox}


def train_one_epoch(model, data_loader, optimizer, device, epoch, max_norm=0.1, amp=False):
    model.train()
    weight_dict = {"loss_ce": 1.0, "loss_bbox": 5.0}
    scaler = torch.cuda.amp.GradScaler(enabled=amp)
    for samples, targets in data_loader:
        samples = samples.to(device)
        targets = {k: v.to(device) for k, v in targets.items()}
        with torch.cuda.amp.autocast(enabled=amp):
            outputs = model(samples)
            loss_dict = criterion(outputs, targets)
            losses = sum(loss_dict[k] * weight_dict[k] for k in loss_dict.keys())
        loss_value = losses.item()
        if not math.isfinite(loss_value):
            print(f"Loss is {loss_value}, stopping training")
            sys.exit(1)
        if amp:
            optimizer.zero_grad()
            scaler.scale(losses).backward()
            if max_norm > 0:
                scaler.unscale_(optimizer)
                torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            scaler.step(optimizer)
            scaler.update()
        else:
            losses.backward()  # expect: gradients-never-cleared
            if max_norm > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
    print(f"epoch {epoch} done, last loss {loss_value:.4f}")


if __name__ == "__main__":
    det = TinyDetector()
    opt = torch.optim.AdamW(det.parameters(), lr=1e-4, weight_decay=1e-4)
    batches = [(torch.randn(2, 3, 128, 128),
                {"labels": torch.randint(0, 92, (2, 20)), "boxes": torch.rand(2, 20, 4)}) for _ in range(4)]
    train_one_epoch(det, batches, opt, "cpu", 0)
