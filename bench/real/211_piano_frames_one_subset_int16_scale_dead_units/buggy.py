"""Frame-level piano transcription (an MLP maps a 64-bin magnitude spectrum to 24 note on/off
outputs, multi-label BCE with logits, SGD with momentum, DataLoader over frames pooled from several
recording sets). The recording sets are concatenated as they come; one of them was decoded as raw
16-bit integers instead of floats in [-1, 1], so its spectra are ~32,768 times larger than the
rest. Batches that contain its frames produce enormous activations and gradients; the first such
steps throw the weights so far that the hidden ReLUs end up silent for the normal-scale frames and
the network settles on predicting every note off (in the report the same blow-up went on to NaN);
training on the other sets alone is fine.

Source: https://github.com/jsleep/wav2mid/issues/3 (Nans in training)
Report: "the training loss is going to nan when the training data has \"AkpnCGDd\" data set in it.
On removing it the training proceeds fine. When ran just by itself it runs fine. So we are unable
to figure out what is causing this issue". Reproduced with six synthetic recording sets of 900
frames each (random chords of up to 3 of 24 notes, each note a fundamental plus decaying harmonics
on a 64-bin spectrum, plus noise), the set named "AkPnCGdD" scaled by 32768 as integer-decoded
audio would be, a 64-128-24 MLP, SGD lr 0.5 momentum 0.9, batches of 64, 8 epochs. The printed loss
is the mean training loss of the last epoch, `acc` the frame-level note accuracy on a held-out set
(predicting every note off scores about 0.92).

expect: data-outlier
symptom: acc-below 0.95
batch: 12
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import ConcatDataset, DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

NOTES, BINS = 24, 64
note_spec = torch.zeros(NOTES, BINS)
for k in range(NOTES):
    for h in range(1, 5):
        b = int(round((k + 4) * h * 0.55))
        if b < BINS:
            note_spec[k, b] += 1.0 / h


def recording(n, gain=1.0):
    roll = torch.zeros(n, NOTES)
    for i in range(n):
        roll[i, torch.randperm(NOTES)[:torch.randint(1, 4, (1,)).item()]] = 1.0
    amp = roll * (0.3 + 0.7 * torch.rand(n, NOTES))
    spec = amp @ note_spec + 0.03 * torch.rand(n, BINS)
    return TensorDataset(spec * gain, roll)


set_names = ["MAPS_ENSTDkCl", "MAPS_SptkBGAm", "AkPnCGdD", "MAPS_StbgTGd2", "MAPS_AkPnBcht", "MAPS_ENSTDkAm"]
sets = {name: recording(900, gain=32768.0 if name == "AkPnCGdD" else 1.0) for name in set_names}
test = recording(1000)
train = ConcatDataset([sets[name] for name in set_names])

model = nn.Sequential(nn.Linear(BINS, 128), nn.ReLU(), nn.Linear(128, NOTES))
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
loss_fn = nn.BCEWithLogitsLoss()
loader = DataLoader(train, batch_size=64, shuffle=True)

for epoch in range(8):
    total, count = 0.0, 0
    for xb, yb in loader:
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        count += len(xb)
    print(f"epoch {epoch} loss {total / count:.4f}")

with torch.no_grad():
    xt, yt = test.tensors
    acc = ((model(xt) > 0).float() == yt).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
