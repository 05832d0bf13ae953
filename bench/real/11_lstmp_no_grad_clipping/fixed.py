"""Fixed version of 11_lstmp_no_grad_clipping/buggy.py (the source and the report are in its docstring).

Fix: clip the gradient norm to 1.0 before each step.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)


class LSTMPCell(nn.Module):
    def __init__(self, input_size, hidden_size, proj_size):
        super().__init__()
        self.weight_ih = nn.Parameter(torch.randn(4 * hidden_size, input_size) * 0.3)
        self.weight_hh = nn.Parameter(torch.randn(4 * hidden_size, proj_size) * 0.3)
        self.bias = nn.Parameter(torch.zeros(4 * hidden_size))
        self.weight_hr = nn.Parameter(torch.randn(proj_size, hidden_size) * 0.3)

    def forward(self, x, state):
        hx, cx = state
        gates = x @ self.weight_ih.t() + hx @ self.weight_hh.t() + self.bias
        i, f, g, o = gates.chunk(4, 1)
        cy = torch.sigmoid(f) * cx + torch.sigmoid(i) * torch.tanh(g)
        hy = (torch.sigmoid(o) * torch.tanh(cy)) @ self.weight_hr.t()
        return hy, (hy, cy)


vocab, T, B = 12, 80, 16
cell = LSTMPCell(vocab, 64, 32)
head = nn.Linear(32, vocab)
params = list(cell.parameters()) + list(head.parameters())
opt = torch.optim.SGD(params, lr=1.0)

# long sequences from a noisy repeating pattern: predict the next symbol
period = torch.randint(0, vocab, (7,))

losses = []
for it in range(60):
    start = torch.randint(0, 7, (B,))
    pos = (start[:, None] + torch.arange(T + 1)[None]) % 7
    seq = period[pos]
    noise = torch.rand(B, T + 1) < 0.1
    seq = torch.where(noise, torch.randint(0, vocab, (B, T + 1)), seq)
    x = F.one_hot(seq[:, :-1], vocab).float()
    h = (torch.zeros(B, 32), torch.zeros(B, 64))
    logits = []
    for t in range(T):
        out, h = cell(x[:, t], h)
        logits.append(head(out))
    loss = F.cross_entropy(torch.stack(logits, 1).reshape(-1, vocab), seq[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    losses.append(loss.item())

print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
