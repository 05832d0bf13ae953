"""Change-detection training script (FCCDN-like, top-level loop): F1 on the validation split."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

EPOCHS, LR, BATCH = 5, 2e-3, 8


class SiameseCD(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Conv2d(128, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.Conv2d(32, 1, 1))

    def forward(self, a, b):
        fa, fb = self.enc(a), self.enc(b)
        return self.head(torch.cat([fa, torch.abs(fa - fb)], dim=1))


a_all, b_all = torch.rand(96, 3, 64, 64), torch.rand(96, 3, 64, 64)
lbl = (torch.rand(96, 1, 64, 64) > 0.9).float()
train_loader = DataLoader(TensorDataset(a_all[:80], b_all[:80], lbl[:80]), batch_size=BATCH, shuffle=True)
val_loader = DataLoader(TensorDataset(a_all[80:], b_all[80:], lbl[80:]), batch_size=BATCH)

model = SiameseCD()
optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=1e-3)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=EPOCHS)
best_f1 = 0.0

model.train()
for epoch in range(EPOCHS):
    for img1, img2, label in train_loader:
        pred = model(img1, img2)
        loss = F.binary_cross_entropy_with_logits(pred, label, pos_weight=torch.tensor(5.0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    scheduler.step()

    model.eval()  # expect: train-mode-not-restored
    tp = fp = fn = 0.0
    with torch.no_grad():
        for img1, img2, label in val_loader:
            hard = (torch.sigmoid(model(img1, img2)) > 0.5).float()
            tp += (hard * label).sum().item()
            fp += (hard * (1 - label)).sum().item()
            fn += ((1 - hard) * label).sum().item()
    f1 = 2 * tp / max(2 * tp + fp + fn, 1.0)
    if f1 > best_f1:
        best_f1 = f1
        torch.save(model.state_dict(), "fccdn_best.pt")
    print(f"epoch {epoch}: loss {loss.item():.4f} val F1 {f1:.4f} (best {best_f1:.4f})")
