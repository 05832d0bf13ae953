"""Speaker-embedding encoder trained with a supervised contrastive loss on single-view batches: the same program with an anchor's positive count replaced by 1 where it is zero before dividing, so anchors whose speaker appears only once in the batch contribute 0 instead of 0/0 = NaN.
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

N_SPK, FEAT, EMB = 60, 40, 32
prototypes = torch.randn(N_SPK, FEAT)


def utterances(n):
    spk = torch.randint(0, N_SPK, (n,))
    return prototypes[spk] + 0.9 * torch.randn(n, FEAT), spk


def supcon_loss(z, labels, temperature=0.1):
    n = z.shape[0]
    sim = z @ z.T / temperature
    sim = sim - sim.max(1, keepdim=True).values.detach()
    self_mask = 1.0 - torch.eye(n)
    pos = (labels[:, None] == labels[None, :]).float() * self_mask
    exp_sim = torch.exp(sim) * self_mask
    log_prob = sim - torch.log(exp_sim.sum(1, keepdim=True))
    n_pos = pos.sum(1)
    n_pos = torch.where(n_pos < 1e-6, torch.ones_like(n_pos), n_pos)
    mean_log_prob_pos = (pos * log_prob).sum(1) / n_pos
    return -mean_log_prob_pos.mean()


X_train, y_train = utterances(3000)
X_test, y_test = utterances(1200)
encoder = nn.Sequential(nn.Linear(FEAT, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, EMB))
opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X_train, y_train), batch_size=32, shuffle=True)


def embed(x):
    return F.normalize(encoder(x), dim=1)


for epoch in range(4):
    total, steps = 0.0, 0
    for xb, yb in loader:
        loss = supcon_loss(embed(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        steps += 1
    with torch.no_grad():
        z_train, z_test = embed(X_train), embed(X_test)
        centroids = F.normalize(torch.stack([z_train[y_train == s].mean(0) for s in range(N_SPK)]), dim=1)
        acc = ((z_test @ centroids.T).argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} supcon {total / steps:.4f} acc {acc:.3f}")

print(f"final_loss={total / steps:.6g} acc={acc:.4f}")
