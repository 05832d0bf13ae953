"""Text-classification benchmark (CNN over word embeddings) whose training loop never zeroes the gradients.

Source: https://github.com/FreedomIntelligence/TextClassificationBenchmark/issues/20 (why donot use optimizer.zero_grad in each training step?)
Report: the benchmark's main.py loops over the training iterator with model(text),
F.cross_entropy, loss.backward() and optimizer.step() but no optimizer.zero_grad(), so each
step applies the sum of every gradient computed so far. Reproduced with the benchmark's loop
shape (hand-made batch iterator of padded token ids, Kim-style CNN: embedding, parallel
convolutions of widths 3/4/5 with max-over-time pooling, dropout, linear; Adam lr 1e-3) on
synthetic 4-class "reviews" whose class is carried by a few cue words among noise words;
`acc` is the held-out accuracy.

expect: missing-zero-grad
symptom: acc-below 0.8
batch: 5
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

VOCAB, N_CLASS, SEQ = 2000, 4, 40
cues = torch.randint(100, VOCAB, (N_CLASS, 15))


def make(n):
    label = torch.randint(0, N_CLASS, (n,))
    text = torch.randint(1, VOCAB, (n, SEQ))
    for i in range(n):
        pos = torch.randperm(SEQ)[:4]
        text[i, pos] = cues[label[i], torch.randint(0, 15, (4,))]
        text[i, int(torch.randint(25, SEQ, (1,))):] = 0      # padding
    return text, label


class CNNText(nn.Module):
    def __init__(self, embedding_dim=64, kernel_sizes=(3, 4, 5), kernel_num=32):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, embedding_dim, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(embedding_dim, kernel_num, k) for k in kernel_sizes])
        self.dropout = nn.Dropout(0.5)
        self.fc = nn.Linear(kernel_num * len(kernel_sizes), N_CLASS)

    def forward(self, text):
        x = self.embed(text).transpose(1, 2)
        x = [F.relu(conv(x)).max(2)[0] for conv in self.convs]
        return self.fc(self.dropout(torch.cat(x, 1)))


def batch_iter(text, label, batch_size=64):
    perm = torch.randperm(len(text))
    for i in range(0, len(perm), batch_size):
        idx = perm[i:i + batch_size]
        yield text[idx], label[idx]


train_text, train_label = make(6000)
test_text, test_label = make(1000)
model = CNNText()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
losses = []
for epoch in range(4):
    for text, label in batch_iter(train_text, train_label):
        model.train()
        out = model(text)
        loss = F.cross_entropy(out, label)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-90:]) / 90:.4f}")

model.eval()
with torch.no_grad():
    acc = (model(test_text).argmax(1) == test_label).float().mean().item()
print(f"final_loss={sum(losses[-90:]) / 90:.6g} acc={acc:.4f}")
