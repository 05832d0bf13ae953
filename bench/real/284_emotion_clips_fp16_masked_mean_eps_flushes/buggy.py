"""Speech-emotion classifier written as a small Trainer class: frame features (24-dim) go through a
per-frame MLP, are mean-pooled over the voiced frames with a mask (sum / (count + 1e-12)) and
classified into 5 emotions, all under CPU float16 autocast. The pooling keeps the mask in the
activations' dtype, so the 1e-12 guard is itself a float16 number -- and 1e-12 is far below the
smallest float16 subnormal, so it rounds to exactly 0. Clips whose voice-activity mask is empty
(the detector removed every frame) then pool to 0/0 = NaN, and the first batch holding one turns
the loss and every weight into NaN; in float32 the same guard keeps those clips at zero.

Source: https://github.com/openvinotoolkit/openvino/pull/8676 ([IE][nGraph] resolve division by zero for FP16)
Report: "In some models patterns x/max(y, eps) and x/(y + eps) are used to prevent division by
zero. But usually in FP32 networks eps is such small (e.g. 1e-9, 1e-12, ...) that after casting to
FP16 it's collapsed to zero. This can lead to division by zero if x and y happen to be also zero."
Reproduced with 2,400 synthetic clips of up to 60 frames (emotion-specific frame means plus noise,
random lengths, about 3 % of clips with an empty voiced-frame mask), batches of 48 from a shuffled
DataLoader, Adam lr 2e-3, 6 epochs. The printed loss is the mean training loss of the last epoch,
`acc` the accuracy on 600 held-out clips.

expect: fp16-underflow
symptom: nonfinite
batch: 17
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_EMO, FRAMES, FEAT = 5, 60, 24
centres = 0.7 * torch.randn(N_EMO, FEAT)


def make_clips(n):
    y = torch.randint(0, N_EMO, (n,))
    x = centres[y].unsqueeze(1) + torch.randn(n, FRAMES, FEAT)
    lengths = torch.randint(10, FRAMES + 1, (n,))
    voiced = (torch.arange(FRAMES).unsqueeze(0) < lengths.unsqueeze(1)).float()
    voiced[torch.rand(n) < 0.03] = 0.0
    return x * voiced.unsqueeze(-1), voiced, y


class EmotionNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.frame = nn.Sequential(nn.Linear(FEAT, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.cls = nn.Linear(64, N_EMO)

    def forward(self, x, voiced):
        h = self.frame(x)
        mask = voiced.unsqueeze(-1).to(h.dtype)
        pooled = (h * mask).sum(1) / (mask.sum(1) + 1e-12)
        return self.cls(pooled)


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def train_epoch(self, loader):
        self.model.train()
        total, n = 0.0, 0
        for x, voiced, y in loader:
            with torch.autocast("cpu", dtype=torch.float16):
                logits = self.model(x, voiced)
            loss = F.cross_entropy(logits.float(), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item() * len(y)
            n += len(y)
        return total / n

    @torch.no_grad()
    def accuracy(self, x, voiced, y):
        self.model.eval()
        with torch.autocast("cpu", dtype=torch.float16):
            pred = self.model(x, voiced).argmax(1)
        return (pred == y).float().mean().item()


train = make_clips(2400)
test = make_clips(600)
loader = DataLoader(TensorDataset(*train), batch_size=48, shuffle=True)
trainer = Trainer(EmotionNet(), lr=2e-3)
for epoch in range(6):
    train_loss = trainer.train_epoch(loader)
    print(f"epoch {epoch + 1} loss {train_loss:.4f}")

acc = trainer.accuracy(*test)
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")
