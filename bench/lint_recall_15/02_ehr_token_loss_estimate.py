"""Periodic loss estimate for a GPT-style model over patient-timeline tokens."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TimelineGPT(nn.Module):
    def __init__(self, vocab, d=256, layers=4, p_drop=0.1):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        block = nn.TransformerEncoderLayer(d, 8, 4 * d, dropout=p_drop, batch_first=True)
        self.body = nn.TransformerEncoder(block, layers)
        self.drop = nn.Dropout(p_drop)
        self.head = nn.Linear(d, vocab)

    def forward(self, idx):
        T = idx.size(1)
        mask = torch.triu(torch.full((T, T), float("-inf"), device=idx.device), diagonal=1)
        h = self.drop(self.emb(idx))
        return self.head(self.body(h, mask=mask))


@torch.inference_mode()
def estimate_loss(model, get_batch, eval_iters=50):
    out = {}
    for split in ("train", "val"):
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            x, y = get_batch(split)
            logits = model(x)  # expect: validation-in-train-mode
            losses[k] = F.cross_entropy(logits.flatten(0, 1), y.flatten()).item()
        out[split] = losses.mean().item()
    return out


def train(model, get_batch, steps=2000, lr=3e-4, eval_interval=200):
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    model.train()
    for step in range(steps):
        if step % eval_interval == 0:
            print(step, estimate_loss(model, get_batch))
        x, y = get_batch("train")
        logits = model(x)
        loss = F.cross_entropy(logits.flatten(0, 1), y.flatten())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
