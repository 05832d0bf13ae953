"""Multi-source pointer network for product-title summarisation: log(1 - gate) of a copy gate that saturates at exactly 1.0.

Source: https://github.com/yym6472/ms_pointer_network/issues/1 (loss is nan)
Report: training the multi-source pointer network (copy each output word either from the
product title or from the background-knowledge source, chosen by a sigmoid gate) gives a NaN
loss; "It's due to the function log() ... log_gate_score_1 = (gate_score + 1e-45).log();
log_gate_score_2 = (1 - gate_score + 1e-45).log()". Reproduced with the model's copy
likelihood (masked attention log-probs over each source, log gate / log(1 - gate) added, then
logsumexp over the two sources) on synthetic title/knowledge pairs whose short title is the
brand (from the knowledge source) followed by the first title words; once the gate is sure
(sigmoid(x) rounds to 1.0 for x > ~17) log(1 - gate) is -inf and backward gives NaN.
`acc` is the held-out share of output words copied right.

expect: unstable-op
symptom: nonfinite
batch: 5
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

V, L1, L2, LT = 300, 12, 6, 5


def make(n):
    title = torch.randint(1, V, (n, L1))
    know = torch.randint(1, V, (n, L2))
    target = torch.cat([know[:, :1], title[:, :LT - 1]], 1)      # brand + first title words
    return title, know, target


class MSPointer(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(V, d)
        self.pos = nn.Embedding(16, d)
        self.enc1, self.enc2 = nn.Linear(d, d), nn.Linear(d, d)
        self.dec = nn.Sequential(nn.Linear(d, d), nn.Tanh(), nn.Linear(d, d))
        self.gate = nn.Linear(d, 1)

    def forward(self, title, know, target):
        ar = lambda n: torch.arange(n)
        h1 = torch.tanh(self.enc1(self.emb(title) + self.pos(ar(title.size(1)))))
        h2 = torch.tanh(self.enc2(self.emb(know) + self.pos(ar(know.size(1)))))
        prev = torch.cat([torch.zeros_like(target[:, :1]), target[:, :-1]], 1)
        q = self.dec(self.emb(prev) + self.pos(ar(target.size(1))))          # (B, LT, d)
        attn1 = F.log_softmax(q @ h1.transpose(1, 2), -1)                   # (B, LT, L1)
        attn2 = F.log_softmax(q @ h2.transpose(1, 2), -1)
        gate_score = torch.sigmoid(self.gate(q)).squeeze(-1)                 # (B, LT)
        return attn1, attn2, gate_score

    def loss(self, title, know, target):
        attn1, attn2, gate_score = self(title, know, target)
        match1 = (title.unsqueeze(1) == target.unsqueeze(2)).float()
        match2 = (know.unsqueeze(1) == target.unsqueeze(2)).float()
        log_gate_score_1 = gate_score.log()
        log_gate_score_2 = (1 - gate_score).log()
        ll1 = torch.logsumexp(attn1 + (match1 + 1e-45).log(), -1) + log_gate_score_1
        ll2 = torch.logsumexp(attn2 + (match2 + 1e-45).log(), -1) + log_gate_score_2
        return -torch.logsumexp(torch.stack([ll1, ll2]), 0).mean()


train = make(4000)
val = make(500)
model = MSPointer()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
losses = []
for epoch in range(10):
    perm = torch.randperm(len(train[0]))
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        loss = model.loss(*(t[idx] for t in train))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-60:]) / 60:.4f}")

with torch.no_grad():
    title, know, target = val
    attn1, attn2, g = model(title, know, target)
    pick1 = title.gather(1, attn1.argmax(-1))
    pick2 = know.gather(1, attn2.argmax(-1))
    pred = torch.where(g > 0.5, pick1, pick2)
    acc = (pred == target).float().mean().item()
print(f"final_loss={sum(losses[-20:]) / 20:.6g} acc={acc:.4f}")
