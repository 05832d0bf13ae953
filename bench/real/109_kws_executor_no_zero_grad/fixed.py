"""Keyword-spotting trainer -- fixed as merged: optimizer.zero_grad() before loss.backward() in
the executor's training loop (nothing else changed).

Source: https://github.com/wenet-e2e/wekws/pull/73 ([fix bug] add optimizer.zero_grad() in kws/utils/executor.py (#72))
Report: "I noticed that in the training stage, when optimizer.step() is called,
optimizer.zero_grad() is not called, so I submit this commit to fix this bug"; the reviewers
asked for optimizer.zero_grad() above loss.backward(), which was merged. Reproduced with the
executor's loop (for each batch of (key, feats, target, feats_lengths): logits = model(feats),
max-pooling KWS loss, loss.backward(), clip_grad_norm_(..., 5), step when the norm is finite), a
GRU keyword model with a per-frame sigmoid output for each of 2 keywords, Adam(lr=1e-3), on
synthetic 40-dim fbank utterances that contain keyword 0, keyword 1 or filler words (some sound
alike); the printed loss is the mean training loss of the last 5 epochs, `acc` the utterance
accuracy on a test set.

expect: missing-zero-grad
symptom: final-loss-ratio 2.5
batch: 6
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_
from torch.utils.data import DataLoader, Dataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_MEL, T, KW = 40, 60, 2
base = torch.randn(4, 12, N_MEL)
words = torch.cat([base[:2], base.repeat(2, 1, 1)[2:]]) + 0.5 * torch.randn(8, 12, N_MEL)  # 0, 1 keywords; 2..7 filler words, some of them sound alike


class KwsDataset(Dataset):
    def __init__(self, n):
        self.target = torch.randint(-1, KW, (n,))  # -1: no keyword
        self.feats, self.lengths = [], []
        for t in self.target.tolist():
            length = int(torch.randint(40, T + 1, (1,)))
            x = 1.2 * torch.randn(T, N_MEL)
            w = t if t >= 0 else int(torch.randint(2, 8, (1,)))
            start = int(torch.randint(0, length - 12, (1,)))
            x[start:start + 12] += words[w]
            x[length:] = 0.0
            self.feats.append(x)
            self.lengths.append(length)

    def __len__(self):
        return len(self.target)

    def __getitem__(self, i):
        return f"utt{i}", self.feats[i], self.target[i], self.lengths[i]


def collate(batch):
    keys, feats, target, lengths = zip(*batch)
    return list(keys), torch.stack(feats), torch.stack(target), torch.tensor(lengths)


class GRUKws(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(N_MEL, 64, batch_first=True)
        self.classifier = nn.Linear(64, KW)

    def forward(self, x):
        x, _ = self.gru(x)
        return torch.sigmoid(self.classifier(x))


def max_pooling_loss(logits, target, lengths):
    mask = torch.arange(logits.size(1)).unsqueeze(0) < lengths.unsqueeze(1)
    max_prob = logits.masked_fill(~mask.unsqueeze(-1), 0.0).max(1)[0].clamp(1e-8, 1 - 1e-7)
    onehot = F.one_hot((target + 1), KW + 1)[:, 1:].float()
    loss = -(onehot * max_prob.log() + (1 - onehot) * (1 - max_prob).log()).sum(1).mean()
    pred = torch.where(max_prob.max(1)[0] > 0.5, max_prob.argmax(1), torch.full_like(target, -1))
    return loss, (pred == target).float().mean()


class Executor:
    def train(self, model, optimizer, data_loader, args):
        model.train()
        clip = args.get("grad_clip", 5.0)
        total = 0.0
        for batch_idx, batch in enumerate(data_loader):
            key, feats, target, feats_lengths = batch
            logits = model(feats)
            loss, acc = max_pooling_loss(logits, target, feats_lengths)
            optimizer.zero_grad()
            loss.backward()
            grad_norm = clip_grad_norm_(model.parameters(), clip)
            if torch.isfinite(grad_norm):
                optimizer.step()
            total += loss.item()
        return total / (batch_idx + 1)

    def test(self, model, data_loader):
        model.eval()
        hits = n = 0
        with torch.no_grad():
            for key, feats, target, feats_lengths in data_loader:
                _, acc = max_pooling_loss(model(feats), target, feats_lengths)
                hits += acc.item() * len(key)
                n += len(key)
        return hits / n


train_loader = DataLoader(KwsDataset(1500), batch_size=50, shuffle=True, collate_fn=collate)
test_loader = DataLoader(KwsDataset(500), batch_size=100, collate_fn=collate)
model = GRUKws()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
executor = Executor()
history = []
for epoch in range(20):
    train_loss = executor.train(model, optimizer, train_loader, {"grad_clip": 5.0})
    acc = executor.test(model, test_loader)
    history.append(train_loss)
    print(f"epoch {epoch} train_loss {train_loss:.4f} test_acc {acc:.4f}")
print(f"final_loss={sum(history[-5:]) / 5:.6g} acc={acc:.4f}")
