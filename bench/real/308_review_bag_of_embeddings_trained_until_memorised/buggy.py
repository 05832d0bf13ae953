"""Binary text classifier in the style of the forum post: token embeddings summed over the document, then a 512-256-1 ReLU MLP with dropout and a sigmoid output, BCELoss, Adam, shuffled mini-batches through a DataLoader. The embedding table is trainable and large (vocabulary x 64) while the labelled set is small, and the script simply runs a long fixed number of epochs: after the first few the network has memorised the training documents through rare-token embeddings, the training loss keeps sinking towards zero and the validation loss climbs epoch after epoch.

Source: https://discuss.pytorch.org/t/model-overfits-and-does-not-improve-on-validation-accuracy/187642 (Model overfits and does not improve on validation accuracy)
Report: "my model tends to overfit quickly after a few epochs. I have tried training in shuffled
mini-batches, decreasing the complexity of the model, add stronger dropout and higher weight decay.
But no matter what I do, the model will always overfit once the training accuracy gets to around 81%
and the validation loss will go up." Reproduced with 1,200 synthetic training documents (vocabulary
of 4,000 tokens, Zipf-like frequencies, label carried noisily by 40 cue tokens), the summed-
embedding MLP above with dropout 0.4, Adam lr 1e-3 with weight decay 1e-7, batches of 64, 30 epochs.
The printed loss is the BCE on 1,000 validation documents after the last epoch, `acc` the
validation accuracy.

expect: overfitting
symptom: final-loss-ratio 1.5
batch: 18
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

VOCAB, LEN, EMB = 4000, 50, 64
EPOCHS = 30
freq = 1.0 / torch.arange(1, VOCAB + 1).float() ** 0.9
cue_ids = torch.randperm(VOCAB - 200)[:40] + 200
cue_sign = torch.arange(40) % 2 * 2 - 1


def documents(n):
    y = torch.randint(0, 2, (n,))
    tokens = torch.multinomial(freq, n * LEN, replacement=True).reshape(n, LEN)
    for i in range(n):
        want = 1 if y[i] == 1 else -1
        k = int(torch.randint(3, 7, ()))
        pool = cue_ids[cue_sign == want] if torch.rand(()) < 0.85 else cue_ids[cue_sign != want]
        tokens[i, torch.randperm(LEN)[:k]] = pool[torch.randint(0, len(pool), (k,))]
    return tokens, y.float()


class FeedForward(nn.Module):
    def __init__(self, hidden_size=512, dropout=0.4):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMB)
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(EMB, hidden_size), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden_size, hidden_size // 2), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden_size // 2, 1), nn.Sigmoid(),
        )

    def forward(self, tokens):
        return self.linear_relu_stack(self.embedding(tokens).sum(dim=1)).squeeze(1)


Xtr, ytr = documents(1200)
Xva, yva = documents(1000)
model = FeedForward()
loss_function = nn.BCELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-7)
loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=64, shuffle=True)

for epoch in range(EPOCHS):
    model.train()
    total = 0.0
    for xb, yb in loader:
        loss = loss_function(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
    model.eval()
    with torch.no_grad():
        p = model(Xva)
        val = loss_function(p, yva).item()
        acc = ((p > 0.5).float() == yva).float().mean().item()
    print(f"epoch {epoch} train {total / len(Xtr):.4f} val {val:.4f} val_acc {acc:.4f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
