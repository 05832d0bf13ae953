"""ATAC-seq coverage denoiser in the style of the report's toolkit: a 1-D conv net (1 -> 16 -> 16 -> 1 channels, kernel 9) maps a noisy, low-coverage track of 200 bins to the clean high-coverage track, MSE loss, Adam lr 2e-3, DataLoader batches of 64 (in file order, as the chunked reader expects), 3 epochs. The dataset's chunked reader maps a sample index to the start of its 64-row chunk and forgets to add the offset inside the chunk, so every batch is one track repeated 64 times: each epoch shows the network only 1 in 64 of the 6,400 training tracks (the same 100 every epoch), and with one track per step the denoiser ends with a clearly higher error on new tracks than one trained on all of them.

Source: https://github.com/NVIDIA-Genomics-Research/AtacWorks/issues/207 (In training, same sample is being stored per batch.)
Report: "This bug was reported in #195 using v0.2.3 version. I am able to reproduce it on the same tag ...
This will show that for a batch size of 64, every sample in the batch is identical." Reproduced with
synthetic tracks (a few Gaussian peaks on a low background; the noisy input is a Poisson-thinned copy
scaled back up). The printed loss is the MSE on 1,000 held-out tracks, `acc` the fraction of their
peak bins (clean signal > 1) whose denoised value is within 30% of the truth.

expect: data-duplicates
symptom: final-loss-ratio 1.15
batch: 24
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

L, BATCH = 200, 64
pos = torch.arange(L).float()


def tracks(n):
    clean = 0.1 * torch.ones(n, L)
    for _ in range(3):
        centre = torch.rand(n, 1) * L
        width = 3 + 6 * torch.rand(n, 1)
        height = 1 + 4 * torch.rand(n, 1)
        clean = clean + height * torch.exp(-((pos - centre) / width) ** 2)
    noisy = torch.poisson(clean * 2.0) / 2.0
    return noisy.unsqueeze(1), clean.unsqueeze(1)


class ChunkedTracks(Dataset):
    def __init__(self, noisy, clean, chunk):
        self.noisy, self.clean, self.chunk = noisy, clean, chunk

    def __len__(self):
        return len(self.noisy)

    def __getitem__(self, idx):
        chunk_start = (idx // self.chunk) * self.chunk
        row = chunk_start
        return self.noisy[row], self.clean[row]


X_train, Y_train = tracks(6400)
X_test, Y_test = tracks(1000)
model = nn.Sequential(nn.Conv1d(1, 16, 9, padding=4), nn.ReLU(), nn.Conv1d(16, 16, 9, padding=4), nn.ReLU(),
                      nn.Conv1d(16, 1, 9, padding=4))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loader = DataLoader(ChunkedTracks(X_train, Y_train, BATCH), batch_size=BATCH, shuffle=False)
loss_fn = nn.MSELoss()

for epoch in range(3):
    total = 0.0
    for xb, yb in loader:
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    with torch.no_grad():
        val = loss_fn(model(X_test), Y_test).item()
    print(f"epoch {epoch} train_mse {total / len(X_train):.4f} val_mse {val:.4f}")

with torch.no_grad():
    pred = model(X_test)
    val = loss_fn(pred, Y_test).item()
    peak = Y_test > 1
    acc = (((pred - Y_test).abs() < 0.3 * Y_test)[peak]).float().mean().item()
print(f"final_loss={val:.6g} acc={acc:.4f}")
