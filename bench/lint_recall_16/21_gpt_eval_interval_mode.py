"""Small GPT pretraining loop with periodic evaluation every `eval_interval` steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyGPT(nn.Module):
    def __init__(self, vocab=256, d=128, n_layer=2, n_head=4, block=64, dropout=0.1):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(block, d)
        self.drop = nn.Dropout(dropout)
        layer = nn.TransformerEncoderLayer(d, n_head, 4 * d, dropout=dropout, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layer)
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.register_buffer("causal", torch.triu(torch.ones(block, block, dtype=torch.bool), diagonal=1))

    def forward(self, idx):
        T = idx.shape[1]
        x = self.drop(self.tok(idx) + self.pos(torch.arange(T, device=idx.device)))
        x = self.blocks(x, mask=self.causal[:T, :T])
        return self.head(self.ln_f(x))


def get_batch(data, block=64, bs=16):
    ix = torch.randint(len(data) - block - 1, (bs,))
    x = torch.stack([data[i:i + block] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + block] for i in ix])
    return x, y


@torch.no_grad()
def estimate_loss(model, data, iters=20):
    losses = []
    for _ in range(iters):
        x, y = get_batch(data)
        logits = model(x)
        losses.append(F.cross_entropy(logits.flatten(0, 1), y.flatten()).item())
    return sum(losses) / len(losses)


def train(max_steps=500, eval_interval=100):
    data = torch.randint(0, 256, (20000,))
    train_data, val_data = data[:18000], data[18000:]
    model = TinyGPT()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1)
    model.train()
    for step in range(max_steps):
        if step % eval_interval == 0:
            model.eval()  # expect: train-mode-not-restored
            val_loss = estimate_loss(model, val_data)
            print(f"step {step}: val loss {val_loss:.4f}")

        x, y = get_batch(train_data)
        logits = model(x)
        loss = F.cross_entropy(logits.flatten(0, 1), y.flatten())
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()


if __name__ == "__main__":
    train()
