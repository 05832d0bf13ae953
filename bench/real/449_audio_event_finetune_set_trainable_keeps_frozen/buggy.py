"""Sound-event classifier on synthetic log-mel spectrograms (32 mel bands x 32 frames, 6 event classes: rising and falling chirps, band-limited bursts and tones) built on a BYOL-A-style audio encoder (three conv/BatchNorm/ReLU/pool blocks, per-frame fully connected layers, max + mean pooling over time) and a linear head. Training runs in two stages: first the encoder is frozen with `set_trainable(False)` and only the head is fit (a linear probe), then `set_trainable(True)` is meant to unfreeze everything for fine-tuning. The helper only flips parameters whose `requires_grad` is already True, so once frozen the encoder can never be made trainable again: the whole fine-tuning stage silently trains only the head on top of the random encoder and the classifier stays poor.

Source: https://github.com/nttcslab/byol-a/issues/7 (Model parameters cannot be trainable once they become requires_grad=False)
Report: "https://github.com/nttcslab/byol-a/blob/master/byol_a/models.py#L42 `if p.requires_grad` has to be removed." --
`set_trainable(self, trainable=False)` only assigned `p.requires_grad = trainable` for parameters that already required
grad. Reproduced with a linear-probe stage (encoder frozen) followed by a fine-tuning stage that calls
`set_trainable(True)`; the encoder's weights never change in either stage. The printed loss is the held-out cross-entropy,
`acc` the held-out accuracy.

expect: params-not-updated
symptom: final-loss-ratio 5
batch: 28
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
            if p.requires_grad:
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
