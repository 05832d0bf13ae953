# Source: https://github.com/torchgeo/terratorch/pull/391
# Pitfall: pretrained backbone weights for fine-tuning are read with torch.load without
#   weights_only=True; the maintainers switched every call to weights_only=True.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def load_pretrained_backbone(backbone, ckpt_path, prefix="encoder."):
    checkpoint = torch.load(ckpt_path, map_location="cpu")  # expect: torch-load-unsafe
    state = checkpoint.get("state_dict", checkpoint)
    state = {k[len(prefix):]: v for k, v in state.items() if k.startswith(prefix)}
    missing, unexpected = backbone.load_state_dict(state, strict=False)
    print(f"missing={len(missing)} unexpected={len(unexpected)}")
    return backbone


class SegmentationTask(nn.Module):
    def __init__(self, backbone, n_classes, feat_dim=768):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Sequential(nn.Conv2d(feat_dim, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, n_classes, 1))

    def forward(self, x):
        feats = self.backbone(x)
        return nn.functional.interpolate(self.head(feats), size=x.shape[-2:], mode="bilinear", align_corners=False)


def finetune(task, loader, epochs=10, lr=1e-4, device="cuda"):
    task.to(device)
    optimizer = torch.optim.AdamW(task.parameters(), lr=lr)
    criterion = nn.CrossEntropyLoss(ignore_index=-1)
    for epoch in range(epochs):
        task.train()
        for image, mask in loader:
            image, mask = image.to(device), mask.to(device)
            optimizer.zero_grad()
            loss = criterion(task(image), mask)
            loss.backward()
            optimizer.step()
