"""Character-level GPT (Karpathy's gpt.py recipe) trained far past its best step on a tiny corpus.

Source: https://github.com/codetiger/ThiruvalluvarGPT/issues/4 (Validation Loss)
Report: "Is there any reason on why the validation loss first decreased drastically and then
started increasing?"; the author: "My understanding is, the dataset is too small for the model.
If you train too much with training dataset, beyond a point the validation data set does not fit
well. In this use case, each kural is very unique, so the model's optimal learning steps is
around 1000 for this dataset ... this effect is call overfitting." Reproduced with the gpt.py
training loop (get_batch / estimate_loss, 90/10 split) on a small synthetic corpus of short
two-line verses generated from a syllable grammar (~6k characters), with a model far larger than
the data warrants and a fixed max_iters.

expect: overfitting
symptom: final-loss-ratio 1.2
batch: 3
"""
import argparse
import copy

import torch
import torch.nn as nn
from torch.nn import functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

# hyperparameters
batch_size = 32
block_size = 32
max_iters = 400
eval_interval = 25
learning_rate = 1e-3
eval_iters = 10
n_embd = 128
n_head = 4
n_layer = 2
dropout = 0.0

# ------------ a small corpus of verses
g = torch.Generator().manual_seed(1234)
syll = ["ka", "ru", "vi", "na", "tha", "la", "mai", "ya", "pu", "ro", "ni", "sa", "kal", "vu", "en", "ar",
        "pa", "ri", "ul", "to", "me", "zhi", "nn", "ai"]
lines = []
for _ in range(120):
    words = []
    for _ in range(int(torch.randint(3, 6, (1,), generator=g))):
        k = int(torch.randint(1, 4, (1,), generator=g))
        words.append("".join(syll[int(i)] for i in torch.randint(0, len(syll), (k,), generator=g)))
    lines.append(" ".join(words))
text = "\n".join(lines[i] + " /\n" + lines[i + 1] + " .\n" for i in range(0, len(lines) - 1, 2))

chars = sorted(list(set(text)))
vocab_size = len(chars)
stoi = {ch: i for i, ch in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]
data = torch.tensor(encode(text), dtype=torch.long)
n = int(0.9 * len(data))
train_data = data[:n]
val_data = data[n:]


def get_batch(split):
    data = train_data if split == "train" else val_data
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
    return x, y


@torch.no_grad()
def estimate_loss():
    out = {}
    model.eval()
    for split in ["train", "val"]:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            logits, loss = model(X, Y)
            losses[k] = loss.item()
        out[split] = losses.mean()
    model.train()
    return out


class Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.sa = nn.MultiheadAttention(n_embd, n_head, dropout=dropout, batch_first=True)
        self.ffwd = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.ReLU(), nn.Linear(4 * n_embd, n_embd),
                                  nn.Dropout(dropout))
        self.ln1 = nn.LayerNorm(n_embd)
        self.ln2 = nn.LayerNorm(n_embd)
        self.register_buffer("mask", torch.triu(torch.ones(block_size, block_size, dtype=torch.bool), 1))

    def forward(self, x):
        T = x.shape[1]
        h = self.ln1(x)
        x = x + self.sa(h, h, h, attn_mask=self.mask[:T, :T], need_weights=False)[0]
        x = x + self.ffwd(self.ln2(x))
        return x


class GPTLanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.position_embedding_table = nn.Embedding(block_size, n_embd)
        self.blocks = nn.Sequential(*[Block(n_embd, n_head=n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        x = self.token_embedding_table(idx) + self.position_embedding_table(torch.arange(T))
        logits = self.lm_head(self.ln_f(self.blocks(x)))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(B * T, -1), targets.view(B * T))
        return logits, loss


model = GPTLanguageModel()
print(sum(p.numel() for p in model.parameters()) / 1e6, "M parameters;", len(train_data), "training characters")
optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
best_val, best_state, bad_evals, patience = float("inf"), None, 0, 3

for iter in range(max_iters):
    if iter % eval_interval == 0 or iter == max_iters - 1:
        losses = estimate_loss()
        print(f"step {iter}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
        last_val = losses['val'].item()
        # early stopping: keep the weights of the best validation loss
        if last_val < best_val:
            best_val, best_state, bad_evals = last_val, copy.deepcopy(model.state_dict()), 0
        else:
            bad_evals += 1
            if bad_evals >= patience:
                print(f"early stop at step {iter}, best val loss {best_val:.4f}")
                break
    xb, yb = get_batch("train")
    logits, loss = model(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()

model.load_state_dict(best_state)
with torch.no_grad():
    model.eval()
    Xv = torch.stack([val_data[i:i + block_size] for i in range(0, len(val_data) - block_size - 1, 4)])
    Yv = torch.stack([val_data[i + 1:i + block_size + 1] for i in range(0, len(val_data) - block_size - 1, 4)])
    logits, val_loss = model(Xv, Yv)
    acc = (logits.argmax(-1) == Yv).float().mean().item()
print(f"final_loss={val_loss.item():.6g} acc={acc:.4f}")
