"""Wake-word detector trained from a memory-mapped feature file: clips are 16 frames x 32 log-mel features, a small MLP (512 -> 64 -> 64 -> 1) predicts whether the wake word is present, binary cross-entropy, Adam lr 1e-3, 400 training steps of 64 clips. Batches come from a batch generator that keeps its own position counter, and the training loop prefetches from 8 "workers", each holding its own copy of the generator, taken in turn. Every copy keeps its own counter, so the 8 workers hand out the same batch one after another: each batch is used for 8 consecutive steps and the run sees only 50 distinct batches (3,200 of the 25,600 clips), which the network overfits while the held-out loss stays high.

Source: https://github.com/dscripka/openWakeWord/pull/202 (Bugfix for consecutive training steps using the same batch)
Report: "There was a bug where consecutive training steps would use the same batch. The number of consecutive
training steps using the same batch is equal to `n_cpu` ... somehow each of them independently keeping
track of their own `data_counter` member in `mmap_batch_generator` ... In particular training error is
much lower and validation accuracy and recall are much higher." Reproduced with 25,600 synthetic clips
(the positive clips contain a time-shifted, speaker-scaled spectro-temporal template, all clips carry
speech-like noise). The printed loss is the binary cross-entropy on 4,000 held-out clips, `acc` their
accuracy.

expect: data-duplicates
symptom: final-loss-ratio 1.3
batch: 24
"""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

FRAMES, MELS, N_CPU, STEPS, BATCH = 16, 32, 8, 400, 64
template = torch.randn(8, MELS)


def clips(n):
    y = (torch.rand(n) < 0.5).float()
    x = torch.randn(n, FRAMES, MELS) * (0.8 + 0.4 * torch.rand(n, 1, 1))
    shift = torch.randint(0, FRAMES - 8 + 1, (n,))
    gain = 0.4 + 0.4 * torch.rand(n)
    for i in torch.nonzero(y).squeeze(1).tolist():
        s = int(shift[i])
        x[i, s:s + 8] += gain[i] * template
    return x.flatten(1), y


class MmapBatchGenerator:
    def __init__(self, X, y, batch_size):
        self.X, self.y, self.batch_size = X, y, batch_size
        self.data_counter = 0

    def __next__(self):
        n_batches = len(self.X) // self.batch_size
        i = self.data_counter % n_batches
        self.data_counter += 1
        sl = slice(i * self.batch_size, (i + 1) * self.batch_size)
        return self.X[sl], self.y[sl]


X_train, y_train = clips(STEPS * BATCH)
X_test, y_test = clips(4000)
generator = MmapBatchGenerator(X_train, y_train, BATCH)
workers = [copy.copy(generator) for _ in range(N_CPU)]

model = nn.Sequential(nn.Linear(FRAMES * MELS, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(STEPS):
    xb, yb = next(workers[step % N_CPU])
    loss = F.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 99:
        with torch.no_grad():
            val = F.binary_cross_entropy_with_logits(model(X_test).squeeze(1), y_test).item()
        print(f"step {step} train_bce {loss.item():.4f} val_bce {val:.4f}")

with torch.no_grad():
    logits = model(X_test).squeeze(1)
    test_loss = F.binary_cross_entropy_with_logits(logits, y_test).item()
    acc = ((logits > 0).float() == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
