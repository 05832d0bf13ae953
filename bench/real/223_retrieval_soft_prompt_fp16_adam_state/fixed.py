"""Float16 soft-prompt optimisation -- fixed as the pull request does: the prompt is kept as a float32
master copy (so Adam's state and epsilon live in float32) and cast to the encoder's float16 only
for the forward/backward pass (nothing else changed).
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

V, D, L, P = 500, 48, 12, 8


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.proj = nn.Linear(D, D)

    def embed(self, tokens):
        return self.emb(tokens)

    def pool(self, vectors):
        return self.proj(vectors.mean(1))


enc = Encoder().half().eval()
for p in enc.parameters():
    p.requires_grad_(False)

topic = torch.randn(D)
passages = torch.randint(0, V, (600, L))
with torch.no_grad():
    base = enc.pool(enc.embed(passages)).float()
queries = F.normalize(base + 3.0 * topic, dim=1)
train_idx, test_idx = torch.arange(400), torch.arange(400, 600)

with torch.no_grad():
    init = enc.embed(torch.randint(0, V, (P,)))
prompt = nn.Parameter(init.clone().float())
prompt_for_model = lambda: prompt.to(torch.float16)
opt = torch.optim.Adam([prompt], lr=5e-3)


def encode(idx):
    tok = enc.embed(passages[idx])
    pre = prompt_for_model().unsqueeze(0).expand(len(idx), P, D)
    return enc.pool(torch.cat([pre, tok], dim=1)).float()


history = []
for step in range(150):
    idx = train_idx[torch.randint(0, 400, (32,))]
    loss = (1 - F.cosine_similarity(encode(idx), queries[idx], dim=1)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(loss.item())
    if step % 30 == 0:
        print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    e = F.normalize(encode(test_idx), dim=1)
    own = (e * queries[test_idx]).sum(1)
    other = (e * queries[test_idx.roll(1)]).sum(1)
    acc = (own > other).float().mean().item()
final = sum(history[-20:]) / 20
print(f"final_loss={final:.6g} acc={acc:.4f}")
