"""News-topic Transformer classifier that ends in nn.Softmax and is trained with nn.NLLLoss: the loss is -p(target), always negative.

Source: https://github.com/AnubhavGupta3377/Text-Classification-Models-Pytorch/issues/9 (NLLLoss)
Report: "I think the input of nn.NLLloss() is after logsoftmax according to this manual ...
however, here only softmax is provided in model.py therefore, the loss is always negative. I
only check the Transformer model." Reproduced with the repository's Transformer classifier
shape (embedding + positional encoding, encoder layers, mean over positions, linear, Softmax)
and its NLLLoss criterion, written Lightning-style (training_step / validation_step /
configure_optimizers driven by a small fit loop), on synthetic 4-topic AG-News-like headlines
(topic words among common words); `acc` is the validation accuracy.

expect: loss-mismatch
symptom: loss-below 0
batch: 5
"""
import argparse
import math

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

VOCAB, N_CLASS, SEQ = 3000, 4, 24
topic_words = torch.randint(500, VOCAB, (N_CLASS, 40))


def make(n):
    y = torch.randint(0, N_CLASS, (n,))
    x = torch.randint(1, 500, (n, SEQ))                              # common words
    mask = torch.rand(n, SEQ) < 0.2
    x[mask] = topic_words[y.unsqueeze(1).expand(-1, SEQ)[mask], torch.randint(0, 40, (int(mask.sum()),))]
    return x, y


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class Transformer(nn.Module):
    def __init__(self, d_model=64, h=4, N=2):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, d_model)
        self.pos = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, h, 128, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, N)
        self.fc = nn.Linear(d_model, N_CLASS)
        self.softmax = nn.Softmax(dim=1)
        self.loss_op = nn.NLLLoss()

    def forward(self, x):
        h = self.encoder(self.pos(self.embed(x) * math.sqrt(self.embed.embedding_dim)))
        return self.softmax(self.fc(h.mean(1)))

    def training_step(self, batch):
        x, y = batch
        return self.loss_op(self(x), y)

    def validation_step(self, batch):
        x, y = batch
        return (self(x).argmax(1) == y).float().mean().item()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=3e-4)


def fit(model, train, val, max_epochs=4, batch_size=64):
    optimizer = model.configure_optimizers()
    losses = []
    for epoch in range(max_epochs):
        model.train()
        perm = torch.randperm(len(train[0]))
        for i in range(0, len(perm), batch_size):
            idx = perm[i:i + batch_size]
            loss = model.training_step((train[0][idx], train[1][idx]))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        model.eval()
        with torch.no_grad():
            acc = model.validation_step(val)
        print(f"epoch {epoch} loss {sum(losses[-50:]) / 50:.4f} val_acc {acc:.4f}")
    return losses, acc


losses, acc = fit(Transformer(), make(4000), make(800))
print(f"final_loss={sum(losses[-20:]) / 20:.6g} acc={acc:.4f}")
