"""Fixed version of 30_policy_loss_from_item/buggy.py (the source and the report are in its docstring).

Fix: keep the log-probabilities as tensors in the loss (no .item()).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

V, LEN = 10, 6
GOOD = 3  # the "reward" prefers molecules rich in token 3


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32)
        self.gru = nn.GRUCell(32, 64)
        self.out = nn.Linear(64, V)

    def forward(self, tok, h):
        h = self.gru(self.emb(tok), h)
        return self.out(h), h


gen = Generator()
optimizer = torch.optim.Adam(gen.parameters(), lr=0.01)
rewards = []
for it in range(120):
    h = torch.zeros(8, 64)
    tok = torch.zeros(8, dtype=torch.long)
    log_probs, seq = [], []
    for t in range(LEN):
        logits, h = gen(tok, h)
        lp = torch.log_softmax(logits, 1)
        tok = torch.multinomial(lp.exp(), 1).squeeze(1)
        log_probs.append(lp[torch.arange(8), tok])
        seq.append(tok)
    reward = (torch.stack(seq, 1) == GOOD).float().mean(1)
    baseline = reward.mean()
    rl_loss = torch.zeros(1, requires_grad=True)
    for t in range(LEN):
        for b in range(8):
            rl_loss = rl_loss - log_probs[t][b] * (reward[b] - baseline)
    rl_loss = rl_loss / 8
    optimizer.zero_grad()
    rl_loss.backward()
    optimizer.step()
    rewards.append(reward.mean().item())
print(f"final_loss={1 - sum(rewards[-20:]) / 20:.6g} acc={sum(rewards[-20:]) / 20:.4f}")
