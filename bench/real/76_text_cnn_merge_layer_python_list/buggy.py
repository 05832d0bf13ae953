"""Text-CNN sentence classifier whose parallel conv branches sit in a plain Python list inside a
MergeLayer: the optimizer never sees (or trains) the convolution filters.

Source: https://github.com/asyml/texar-pytorch/issues/72 (Missing trainable variables from MergeLayer)
Report (labelled bug, priority high): "in MergeLayer here: texar/core/layers.py#L638 we may want
to use a nn.ModuleList instead of python list, thus the layer parameters can be accessable."
texar's MergeLayer applies several layers to the same input and concatenates their outputs; it
is what Conv1DNetwork uses for the Kim-style parallel filter widths of Conv1DClassifier. With the
layers in a Python list, `model.parameters()` omits them, so the filters stay at their random
initialisation while the embedding and the dense head train. Reproduced with an embedding
(dim 50), a MergeLayer of Conv1d branches of widths 3/4/5 (64 filters each, ReLU, max-pool over
time), dropout and a linear head, Adam 1e-3, on synthetic 30-token "sentences" over a 400-word
vocabulary whose class (4 topics) is carried by class-specific 3-word phrases planted among
shared filler words; `acc` is held-out accuracy.

expect: params-not-updated
symptom: final-loss-ratio 3
batch: 4
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

V, L, C = 400, 30, 4
# each class owns 6 three-word phrases built from a shared pool of 60 words, so single words
# are ambiguous and only the word order inside a phrase identifies the class
pool = torch.arange(40, 100)
phrases = pool[torch.randint(0, 60, (C, 6, 3))]


def make(n):
    y = torch.randint(0, C, (n,))
    x = torch.randint(100, V, (n, L))
    for i in range(n):
        for _ in range(2):
            p = phrases[y[i], torch.randint(0, 6, ())]
            pos = int(torch.randint(0, L - 3, ()))
            x[i, pos:pos + 3] = p
        # distractors: the same pool words in random order
        x[i, torch.randint(0, L, (4,))] = pool[torch.randint(0, 60, (4,))]
    return x, y


class MergeLayer(nn.Module):
    """Applies every layer to the input and concatenates the results (texar.core.MergeLayer)."""

    def __init__(self, layers, dim=1):
        super().__init__()
        self._layers = []
        for layer in layers:
            self._layers.append(layer)
        self._dim = dim

    def forward(self, x):
        return torch.cat([layer(x) for layer in self._layers], dim=self._dim)


class ConvBranch(nn.Module):
    def __init__(self, emb, filters, width):
        super().__init__()
        self.conv = nn.Conv1d(emb, filters, width)

    def forward(self, x):
        return F.relu(self.conv(x)).max(dim=2).values


class Conv1DClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedder = nn.Embedding(V, 50)
        self.encoder = MergeLayer([ConvBranch(50, 64, w) for w in (3, 4, 5)])
        self.dropout = nn.Dropout(0.5)
        self.logits = nn.Linear(3 * 64, C)

    def forward(self, tokens):
        h = self.encoder(self.embedder(tokens).transpose(1, 2))
        return self.logits(self.dropout(h))


train_x, train_y = make(3000)
test_x, test_y = make(600)
model = Conv1DClassifier()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
losses = []
for epoch in range(8):
    model.train()
    perm = torch.randperm(len(train_x))
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        loss = F.cross_entropy(model(train_x[idx]), train_y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-47:]) / 47:.4f}")

model.eval()
with torch.no_grad():
    acc = (model(test_x).argmax(1) == test_y).float().mean().item()
print(f"final_loss={sum(losses[-20:]) / 20:.6g} acc={acc:.4f}")
