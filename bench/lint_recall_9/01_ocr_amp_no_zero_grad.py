# Source: https://github.com/pstage-ocr-team6/ocr-teamcode/pull/26
# Pitfall: the mixed-precision OCR training step scales, backpropagates and steps the optimizer but the
#   gradients are never zeroed, so every batch adds onto all earlier gradients and updates blow up.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast


class LineRecognizer(nn.Module):
    def __init__(self, vocab_size=96, hidden=256):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 32)),
        )
        self.rnn = nn.GRU(128, hidden, batch_first=True, bidirectional=True)
        self.classifier = nn.Linear(2 * hidden, vocab_size)

    def forward(self, images):
        feats = self.backbone(images).squeeze(2).transpose(1, 2)
        seq, _ = self.rnn(feats)
        return self.classifier(seq)


def run_epoch(model, loader, optimizer, scaler, criterion, device):
    model.train()
    seen, total = 0, 0.0
    for images, targets in loader:
        images = images.to(device)
        targets = targets.to(device)
        with autocast():
            logits = model(images)
            loss = criterion(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
        scaler.scale(loss).backward()
        scaler.step(optimizer)  # expect: gradients-never-cleared
        scaler.update()
        total += loss.item() * images.size(0)
        seen += images.size(0)
    return total / max(seen, 1)


def main(loader, epochs=10):
    device = torch.device("cuda")
    model = LineRecognizer().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    scaler = GradScaler()
    criterion = nn.CrossEntropyLoss(ignore_index=0)
    for epoch in range(epochs):
        avg = run_epoch(model, loader, optimizer, scaler, criterion, device)
        print(f"epoch {epoch}: loss {avg:.4f}")
