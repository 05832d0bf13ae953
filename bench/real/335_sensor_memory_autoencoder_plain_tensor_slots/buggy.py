"""Memory-augmented reconstruction model for sensor anomaly detection: an encoder turns a 32-sample vibration window into a query, the query attends over a bank of learned "normal pattern" memory slots (keys and values), and the window is reconstructed from the attended values (MSE on normal windows only, Adam); windows reconstructed badly are flagged as anomalies. The memory module creates its keys and values as plain `torch.randn(...)` tensors instead of `nn.Parameter`s, so they are not registered with the module, never reach the optimizer and stay at their random initial values: only the encoder trains, the reconstruction is stuck being a mixture of random vectors, and the error stays high for normal and abnormal windows alike.

Source: https://github.com/SimonThomine/RememberingNormality/issues/7 (some questions)
Report: "self.keys=torch.randn(L,channel).to('cuda') self.values=torch.randn(L,channel).to('cuda') The
code in the module is not wrapped with nn.Parameter(). The parameters do not seem to be recognized as
neural networks but remain unchanged as randomly initialized parameters." -- the author: "You're right,
I cant believe I missed this error ... Fixed". Reproduced with 4,000 synthetic normal vibration windows
(mixtures of three machine harmonics with random phases plus noise) and 400 anomalous windows (an extra
off-band tone), a 32-64-16 encoder, 40 memory slots, Adam lr 3e-3, batch 64, 12 epochs. The printed
loss is the reconstruction MSE on 1,000 held-out normal windows, `acc` the fraction of anomalous windows
whose error exceeds the 95th percentile of the normal validation errors.

expect: params-not-updated
symptom: final-loss-ratio 3
batch: 20
"""
import argparse
import math

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

W = 32
t = torch.arange(W).float()
harmonics = torch.tensor([2.0, 4.0, 6.0])


def windows(n, anomalous=False):
    amp = 0.5 + torch.rand(n, 3)
    phase = 2 * math.pi * torch.rand(n, 3)
    x = (amp[:, :, None] * torch.sin(2 * math.pi * harmonics[None, :, None] * t / W + phase[:, :, None])).sum(1)
    if anomalous:
        x = x + 0.8 * torch.sin(2 * math.pi * 11.0 * t / W + 2 * math.pi * torch.rand(n, 1))
    return x + 0.1 * torch.randn(n, W)


class NormalityMemory(nn.Module):
    def __init__(self, slots, key_dim, value_dim):
        super().__init__()
        self.keys = torch.randn(slots, key_dim)
        self.values = torch.randn(slots, value_dim)

    def forward(self, q):
        attn = torch.softmax(q @ self.keys.t() / math.sqrt(q.shape[1]), dim=1)
        return attn @ self.values


class MemoryAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(W, 64), nn.ReLU(), nn.Linear(64, 16))
        self.memory = NormalityMemory(40, 16, W)

    def forward(self, x):
        return self.memory(self.encoder(x))


X_train, X_val, X_anom = windows(4000), windows(1000), windows(400, anomalous=True)
model = MemoryAE()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(12):
    perm = torch.randperm(len(X_train))
    for i in range(0, len(X_train), 64):
        xb = X_train[perm[i:i + 64]]
        loss = ((model(xb) - xb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        err_val = ((model(X_val) - X_val) ** 2).mean(1)
        err_anom = ((model(X_anom) - X_anom) ** 2).mean(1)
    val = err_val.mean().item()
    acc = (err_anom > err_val.quantile(0.95)).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} detected {acc:.3f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
