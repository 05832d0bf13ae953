"""Music-genre classifier (a small 1-D CNN over log-mel frames, cross-entropy, Adam, DataLoader) whose dataset is built by cutting every song into fragments with 50% overlap and only then splitting the fragments at random into training and validation: fragments of the same song -- sharing half of their frames with a neighbour -- land on both sides, the network recognises the songs instead of the genres and the validation loss / accuracy look far better than on songs it has never heard.

Source: https://github.com/NazarPonochevnyi/Trained-CNN-for-Genre-classification/issues/5 (Maybe leakage in your method of splitting dataset)
Report: "You have overlap 50% in your data augment, and split a song into several fragments while they
were splitted into both train and validation datasets ... So, maybe your validation dataset have
seem itself when training." -- the author agrees "that is not the correct way to calculate accuracy
on the test dataset." Reproduced with 120 synthetic songs of 6 genres (32 log-mel bands, 240
frames; each song has its own timbre and tempo pattern, the genre shifts the timbre only
partly), 64-frame fragments with hop 32, an 80/20 random split of the fragments, a Conv1d
32-48-48 network with global pooling, Adam lr 2e-3, batches of 32, 14 epochs. The printed loss is
the validation cross-entropy, `acc` the validation accuracy.

expect: data-leakage
symptom: loss-below 0.6
batch: 11
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

SONGS, GENRES, BANDS, FRAMES, WIN, HOP = 120, 6, 32, 240, 64, 32


def make_songs():
    genre = torch.arange(SONGS) % GENRES
    genre_timbre = torch.randn(GENRES, BANDS)
    timbre = 0.3 * genre_timbre[genre] + torch.randn(SONGS, BANDS)
    t = torch.arange(FRAMES).float()
    period = torch.randint(4, 16, (SONGS,)).float()
    beat = torch.sin(2 * torch.pi * t[None] / period[:, None])
    pattern = torch.randn(SONGS, BANDS, 1) * beat[:, None, :]
    mel = timbre[:, :, None] + 0.6 * pattern + 0.8 * torch.randn(SONGS, BANDS, FRAMES)
    return mel, genre


def fragments(mel, genre, song_ids):
    xs, ys, sid = [], [], []
    for s in song_ids.tolist():
        for start in range(0, FRAMES - WIN + 1, HOP):
            xs.append(mel[s, :, start:start + WIN])
            ys.append(genre[s])
            sid.append(s)
    return torch.stack(xs), torch.stack(ys), torch.tensor(sid)


mel, genre = make_songs()
X, y, song = fragments(mel, genre, torch.arange(SONGS))
perm = torch.randperm(len(X))
n_val = len(X) // 5
val_idx, train_idx = perm[:n_val], perm[n_val:]
X_train, y_train, X_val, y_val = X[train_idx], y[train_idx], X[val_idx], y[val_idx]

model = nn.Sequential(
    nn.Conv1d(BANDS, 32, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
    nn.Conv1d(32, 48, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
    nn.Conv1d(48, 48, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(),
    nn.Linear(48, GENRES))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=32, shuffle=True)

for epoch in range(14):
    model.train()
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        out = model(X_val)
        val_loss = F.cross_entropy(out, y_val).item()
        acc = (out.argmax(1) == y_val).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val_loss:.4f} acc {acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
