"""Character-level language model with a dilated conv stack (Penn Treebank chars)."""
import math
import time
import torch
import torch.nn as nn


class CharCNN(nn.Module):
    def __init__(self, n_chars, emb=100, hidden=450, levels=3, kernel=3, dropout=0.1):
        super().__init__()
        self.encoder = nn.Embedding(n_chars, emb)
        convs, prev = [], emb
        for i in range(levels):
            convs += [nn.Conv1d(prev, hidden, kernel, padding=(kernel - 1) * 2 ** i, dilation=2 ** i), nn.ReLU(), nn.Dropout(dropout)]
            prev = hidden
        self.convs = nn.ModuleList(convs)
        self.decoder = nn.Linear(hidden, n_chars)

    def forward(self, x):
        h = self.encoder(x).transpose(1, 2)
        seq_len = x.size(1)
        for layer in self.convs:
            h = layer(h)
            if isinstance(layer, nn.Conv1d):
                h = h[:, :, :seq_len]
        return self.decoder(h.transpose(1, 2))


def train(epoch, model, optimizer, criterion, source, seq_len, n_chars, clip=0.15, log_interval=100):
    model.train()
    total_loss = 0.0
    start_time = time.time()
    for batch_idx, i in enumerate(range(0, source.size(1) - 1, seq_len)):
        if i + seq_len >= source.size(1) - 1:
            continue
        inp = source[:, i:i + seq_len]
        target = source[:, i + 1:i + 1 + seq_len]
        optimizer.zero_grad()
        output = model(inp)
        loss = criterion(output.reshape(-1, n_chars), target.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        total_loss += loss  # expect: running-loss-keeps-graph

        if batch_idx > 0 and batch_idx % log_interval == 0:
            cur_loss = total_loss / log_interval
            elapsed = time.time() - start_time
            print(f"| epoch {epoch:3d} | batch {batch_idx:5d} | ms/batch {elapsed * 1000 / log_interval:5.2f} "
                  f"| loss {float(cur_loss):5.3f} | bpc {float(cur_loss) / math.log(2):5.3f}")
            total_loss = 0.0
            start_time = time.time()
