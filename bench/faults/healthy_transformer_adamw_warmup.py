"""expect: healthy. A 2-layer transformer encoder classifier with AdamW, linear warmup then
decay (LambdaLR), dropout, pre-LayerNorm blocks."""
import argparse

import torch
from torch import nn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    V, T, D = 40, 12, 32
    emb = nn.Embedding(V, D)
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(D, 4, 64, dropout=0.1, batch_first=True, norm_first=True),
                                2, enable_nested_tensor=False)
    head = nn.Linear(D, 3)
    model = nn.ModuleDict({"emb": emb, "enc": enc, "head": head})
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    total, warm = 250, 25
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min((s + 1) / warm, max(0.05, (total - s) / (total - warm))))
    for step in range(total):
        tok = torch.randint(0, V, (32, T))
        y = torch.bucketize((tok < 10).sum(1).float(), torch.tensor([2.5, 3.5]))
        logits = head(enc(emb(tok)).mean(1))
        loss = nn.functional.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()


if __name__ == "__main__":
    main()
