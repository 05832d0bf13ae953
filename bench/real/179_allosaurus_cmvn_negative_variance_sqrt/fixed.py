"""allosaurus-style phone recogniser -- fixed as the issue proposes: `spk_std = np.std(feature, axis=0)`
and `spk_std += (spk_std == 0.)` before the division (nothing else changed).
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
rng = np.random.default_rng(args.seed)
torch.set_num_threads(1)

N_MEL, N_PHONES, BLANK = 40, 30, 0
LOG_FLOOR = np.float32(np.log(1.19e-7))
templates = rng.normal(0.0, 1.0, (N_PHONES + 1, N_MEL)).astype(np.float32) * 2.0


def make_utterances(n):
    utts = []
    for _ in range(n):
        phones = rng.integers(1, N_PHONES + 1, rng.integers(5, 10))
        frames = np.concatenate([np.repeat(templates[p][None], rng.integers(3, 7), 0) for p in phones])
        speaker = rng.normal(0, 1.0, N_MEL).astype(np.float32)
        feat = (frames + speaker + rng.normal(0, 0.6, frames.shape) - 8.0).astype(np.float32)
        if rng.random() < 0.15:  # band-limited recording: upper bands at the energy floor
            feat[:, -8:] = LOG_FLOOR
        utts.append((feat, phones))
    return utts


def feature_cmvn(feature):
    frame_cnt = feature.shape[0]
    spk_sum = np.sum(feature, axis=0, dtype=np.float32)
    spk_mean = spk_sum / frame_cnt
    spk_std = np.std(feature, axis=0)
    spk_std += (spk_std == 0.)
    return (feature - spk_mean) / spk_std


class AcousticModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(N_MEL, 64, num_layers=2, bidirectional=True, batch_first=True)
        self.phone_layer = nn.Linear(128, N_PHONES + 1)

    def forward(self, x):
        return self.phone_layer(self.lstm(x)[0]).log_softmax(-1)


def collate(batch):
    feats = [torch.from_numpy(feature_cmvn(f)) for f, _ in batch]
    lengths = torch.tensor([len(f) for f in feats])
    x = nn.utils.rnn.pad_sequence(feats, batch_first=True)
    targets = torch.from_numpy(np.concatenate([p for _, p in batch])).long()
    target_lengths = torch.tensor([len(p) for _, p in batch])
    return x, lengths, targets, target_lengths


def edit_distance(a, b):
    d = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(b) + 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
    return d[len(b)]


import warnings
warnings.filterwarnings("ignore", category=RuntimeWarning)
train, test = make_utterances(240), make_utterances(60)
model = AcousticModel()
ctc = nn.CTCLoss(blank=BLANK)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(6):
    model.train()
    order = rng.permutation(len(train))
    total, count = 0.0, 0
    for i in range(0, len(order), 8):
        x, lengths, targets, target_lengths = collate([train[j] for j in order[i:i + 8]])
        log_probs = model(x).transpose(0, 1)
        loss = ctc(log_probs, targets, lengths, target_lengths)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} ctc loss {total / count:.4f}")

model.eval()
errors, ref_len = 0, 0
with torch.no_grad():
    for feat, phones in test:
        best = model(torch.from_numpy(feature_cmvn(feat))[None])[0].argmax(-1).tolist()
        hyp = [p for k, p in enumerate(best) if p != BLANK and (k == 0 or p != best[k - 1])]
        errors += edit_distance(hyp, phones.tolist())
        ref_len += len(phones)
acc = 1 - errors / ref_len
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
