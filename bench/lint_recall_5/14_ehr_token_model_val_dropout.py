# Source: https://github.com/ipolharvard/ethos-ares/issues/20
# Pitfall: validation loss estimation is wrapped in @torch.no_grad() but the model is never put in eval mode,
#          so dropout stays active while the val loss used for checkpoint selection is measured.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class EventGPT(nn.Module):
    def __init__(self, vocab=600, d=96, ctx=64, p_drop=0.2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(ctx, d)
        self.drop = nn.Dropout(p_drop)
        block = nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=p_drop, batch_first=True)
        self.blocks = nn.TransformerEncoder(block, 3)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, idx):
        t = idx.size(1)
        causal = nn.Transformer.generate_square_subsequent_mask(t)
        h = self.drop(self.tok(idx) + self.pos(torch.arange(t, device=idx.device)))
        return self.lm_head(self.blocks(h, mask=causal, is_causal=True))


def get_batch(data, ctx=64, bs=16):
    ix = torch.randint(len(data) - ctx - 1, (bs,))
    x = torch.stack([data[i:i + ctx] for i in ix])
    y = torch.stack([data[i + 1:i + ctx + 1] for i in ix])
    return x, y


@torch.no_grad()
def estimate_val_loss(model, val_data, iters=20):
    losses = torch.zeros(iters)
    for k in range(iters):
        x, y = get_batch(val_data)
        logits = model(x)  # expect: validation-in-train-mode
        losses[k] = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1)).item()
    return losses.mean().item()


def train(max_iters=300, eval_every=100):
    timeline = torch.randint(0, 600, (20000,))
    train_data, val_data = timeline[:18000], timeline[18000:]
    model = EventGPT()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    best = float("inf")
    for it in range(max_iters):
        if it % eval_every == 0:
            val_loss = estimate_val_loss(model, val_data)
            if val_loss < best:
                best = val_loss
                torch.save(model.state_dict(), "best_event_gpt.pt")
        x, y = get_batch(train_data)
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()


if __name__ == "__main__":
    train()
