"""Soft-prompt optimisation against a frozen text encoder that was loaded in float16 (a bag-of-tokens
retrieval encoder: token embeddings, mean pooling, a projection, cosine similarity to query
embeddings). Eight trainable prompt vectors are prepended to every passage; they are created from
the encoder's own embedding output, so the parameter inherits the encoder's float16 dtype and Adam
keeps its state in float16 too. There both `grad ** 2` (scaled by 1 - beta2 = 0.001) and the
default `eps=1e-8` flush to zero, so the first step divides a non-zero first moment by zero, the
prompt becomes +-inf and every following loss is NaN.

Source: https://github.com/matanbt/TROPT/pull/8 (Fix soft-prompt optimization diverging to NaN in half precision)
Report: "`SoftPromptOptimizer` optimizes the tensor returned by the model's embedding layer, so the
parameter inherits the model's dtype. Adam keeps its state in that same dtype, and in fp16 both
`grad ** 2` and the default `eps=1e-8` flush to zero ... So the very first step evaluates
`m_hat / (sqrt(0) + 0)`, the prompt becomes `+-inf`, and every subsequent loss is NaN". Reproduced
with a random frozen float16 encoder (vocabulary 500, width 48), 400 synthetic passages of 12
tokens whose target queries share a hidden topic direction, 8 prompt vectors, Adam lr 5e-3,
batches of 32, 150 steps. The printed loss is the mean (1 - cosine) over the last 20 steps, `acc`
the share of held-out passages whose prompted embedding is closer to their query than to a random
other query.

expect: fp16-underflow
symptom: nonfinite
batch: 13
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
prompt = nn.Parameter(init.clone())
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
