"""Multi-label text classifier over hundreds of tags, each present in well under 1 % of the
documents, trained with an unweighted BCEWithLogitsLoss: it learns to predict all zeros.

Source: https://github.com/appvision-ai/fast-bert/issues/52 (500+ multi-labels only predicts zeros)
Report: a fast-bert multi-label model over 500+ labels predicts only zeros; another user: "I
am observing very similar issues. Multi-label classification ... The label distribution is
skewed". Suggested fix in the thread: weight the positives in the loss -- "it could very well be
that 10 isn't a significant enough weight for the positive values since 0s outnumber 1s so much
in your data ... number_neg_samples / number_pos_samples should produce even higher weights"
(the `pos_weight` argument of BCEWithLogitsLoss). Reproduced with a small bag-of-embeddings text
encoder (embedding 64, mean pooling, a 256-unit ReLU layer) in place of BERT, 300 tags,
documents of 40 tokens carrying 1-3 tags (each tag marked by a few keywords among filler
words), BCEWithLogitsLoss, Adam 1e-3, batch 32, DataLoader; `acc` is the balanced accuracy
(mean of recall and specificity over all document-tag pairs, threshold 0.5) on held-out
documents.

expect: class-imbalance
symptom: acc-below 0.6
batch: 4
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

VOCAB, TAGS, L = 3000, 300, 40
tag_words = torch.randint(0, VOCAB, (TAGS, 4))


def corpus(n):
    tokens = torch.randint(0, VOCAB, (n, L))
    labels = torch.zeros(n, TAGS)
    for i in range(n):
        tags = torch.randint(0, TAGS, (int(torch.randint(1, 4, ())),))
        labels[i, tags] = 1.0
        for j, t in enumerate(tags):
            tokens[i, 4 * j:4 * j + 4] = tag_words[t]
        tokens[i] = tokens[i, torch.randperm(L)]
    return tokens, labels


class TextClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 64, mode="mean")
        self.head = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, TAGS))

    def forward(self, tokens):
        return self.head(self.emb(tokens))


train_x, train_y = corpus(6000)
test_x, test_y = corpus(1000)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=32, shuffle=True)
model = TextClassifier()
loss_func = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
losses = []
for epoch in range(4):
    for xb, yb in loader:
        loss = loss_func(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-100:]) / 100:.5f}")

with torch.no_grad():
    pred = (model(test_x) > 0).float()
tpr = ((pred * test_y).sum() / test_y.sum()).item()
tnr = (((1 - pred) * (1 - test_y)).sum() / (1 - test_y).sum()).item()
print(f"predicted positives {int(pred.sum())} of {int(test_y.sum())} true; recall {tpr:.3f} specificity {tnr:.3f}")
print(f"final_loss={sum(losses[-100:]) / 100:.6g} acc={(tpr + tnr) / 2:.4f}")
