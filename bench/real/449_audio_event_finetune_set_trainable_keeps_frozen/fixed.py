"""Sound-event classifier with a linear-probe stage followed by fine-tuning: the same program with `set_trainable` assigning `requires_grad` to every parameter instead of only to those that already required grad, so `set_trainable(True)` really unfreezes the encoder for the fine-tuning stage.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_MELS, N_FRAMES, N_CLASSES = 32, 32, 6


def spectrograms(n):
    y = torch.randint(0, N_CLASSES, (n,))
    t = torch.arange(N_FRAMES).float()
    f = torch.arange(N_MELS).float()[:, None]
    spec = 0.5 * torch.randn(n, 1, N_MELS, N_FRAMES)
    for i in range(n):
        c = y[i].item()
        start = torch.randint(4, 12, (1,)).item()
        if c == 0:
            track = start + 0.6 * t
        elif c == 1:
            track = start + 16 - 0.6 * t
        elif c in (2, 3):
            track = torch.full_like(t, start + (0 if c == 2 else 12))
        else:
            track = torch.full_like(t, start + 6)
        mask = torch.ones_like(t) if c != 3 and c != 5 else ((t // 4) % 2 == 0).float()
        if c == 4:
            mask = ((t > 8) & (t < 20)).float()
        spec[i, 0] += 2.0 * torch.exp(-((f - track) ** 2) / 4.0) * mask
    return spec, y


class NetworkCommonMixIn:
    def set_trainable(self, trainable=False):
        for p in self.parameters():
            p.requires_grad = trainable


class AudioEncoder(nn.Module, NetworkCommonMixIn):
    def __init__(self, d=32):
        super().__init__()
        blocks = []
        for c_in, c_out in ((1, 16), (16, 16), (16, 16)):
            blocks += [nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(), nn.MaxPool2d(2)]
        self.features = nn.Sequential(*blocks)
        self.fc = nn.Sequential(nn.Linear(16 * (N_MELS // 8), d), nn.ReLU(), nn.Linear(d, d), nn.ReLU())

    def forward(self, x):
        x = self.features(x).permute(0, 3, 2, 1)
        b, t, m, c = x.shape
        x = self.fc(x.reshape(b, t, m * c))
        return x.max(1).values + x.mean(1)


X_train, y_train = spectrograms(2000)
X_test, y_test = spectrograms(600)
encoder, head = AudioEncoder(), nn.Linear(32, N_CLASSES)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X_train, y_train), batch_size=50, shuffle=True)


def run_stage(name, epochs, lr):
    params = [p for p in list(encoder.parameters()) + list(head.parameters()) if p.requires_grad]
    opt = torch.optim.Adam(params, lr=lr)
    for epoch in range(epochs):
        encoder.train()
        total = 0.0
        for xb, yb in loader:
            loss = F.cross_entropy(head(encoder(xb)), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
        encoder.eval()
        with torch.no_grad():
            logits = head(encoder(X_test))
            test_loss = F.cross_entropy(logits, y_test).item()
            acc = (logits.argmax(1) == y_test).float().mean().item()
        print(f"{name} epoch {epoch} train {total / len(X_train):.4f} test {test_loss:.4f} acc {acc:.3f}")
    return test_loss, acc


encoder.set_trainable(False)
run_stage("probe", 2, 1e-2)
encoder.set_trainable(True)
test_loss, acc = run_stage("finetune", 4, 2e-3)
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
