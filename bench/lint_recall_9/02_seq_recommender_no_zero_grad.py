# Source: https://github.com/meta-recsys/generative-recommenders/pull/332
# Pitfall: the sequential-recommender training loop calls backward() and optimizer.step() each batch
#   but never calls zero_grad(), so gradients accumulate over the whole run instead of per batch.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class NextItemModel(nn.Module):
    def __init__(self, num_items, dim=64, heads=2, layers=2, max_len=50):
        super().__init__()
        self.item_emb = nn.Embedding(num_items + 1, dim, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, dim)
        block = nn.TransformerEncoderLayer(dim, heads, dim * 4, batch_first=True)
        self.encoder = nn.TransformerEncoder(block, layers)

    def forward(self, seq):
        positions = torch.arange(seq.size(1), device=seq.device).unsqueeze(0)
        h = self.item_emb(seq) + self.pos_emb(positions)
        causal = torch.triu(torch.ones(seq.size(1), seq.size(1), device=seq.device, dtype=torch.bool), 1)
        h = self.encoder(h, mask=causal)
        return h @ self.item_emb.weight.t()


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def train_step(self, seq, nxt):
        logits = self.model(seq)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), nxt.view(-1), ignore_index=0)
        loss.backward()
        self.opt.step()  # expect: gradients-never-cleared
        return loss.detach()

    def fit(self, loader, epochs):
        self.model.train()
        for epoch in range(epochs):
            running = 0.0
            for step, (seq, nxt) in enumerate(loader):
                running += self.train_step(seq, nxt).item()
            print(epoch, running / (step + 1))
