# Source: https://github.com/jordiclive/Convert-PolyAI-Torch/issues/8
# Pitfall: the dual-encoder ranking loss computes log(sum(exp(scores))) over the in-batch similarity matrix by
#          hand, with no max subtracted; large dot products overflow exp to inf and the loss turns to NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SharedEncoder(nn.Module):
    def __init__(self, vocab=8000, dim=256):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.ctx_ff = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.rsp_ff = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))

    def forward(self, context_ids, reply_ids):
        return self.ctx_ff(self.emb(context_ids)), self.rsp_ff(self.emb(reply_ids))


def ranking_loss(ctx_vec, rsp_vec, scale=5.0):
    scores = scale * ctx_vec @ rsp_vec.t()
    positive = torch.diagonal(scores)
    log_norm = torch.log(torch.sum(torch.exp(scores), dim=1))  # expect: unshifted-logsumexp
    return (log_norm - positive).mean()


def train(steps=100):
    model = SharedEncoder()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(steps):
        ctx = torch.randint(0, 8000, (64, 30))
        rsp = torch.randint(0, 8000, (64, 20))
        opt.zero_grad()
        c, r = model(ctx, rsp)
        loss = ranking_loss(F.normalize(c, dim=-1) * 4, F.normalize(r, dim=-1) * 4)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step % 25 == 0:
            print(step, loss.item())


if __name__ == "__main__":
    train()
