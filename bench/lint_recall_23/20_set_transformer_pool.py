"""Set-Transformer style readout over variable-size node sets packed into a padded batch."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def pad_packed(x, lengths):
    out = x.new_zeros(len(lengths), max(lengths), *x.shape[1:])
    start = 0
    for i, n in enumerate(lengths):
        out[i, :n] = x[start:start + n]
        start += n
    return out


class PaddedMultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.d_head = d_model // num_heads
        self.num_heads = num_heads
        self.proj_q = nn.Linear(d_model, d_model, bias=False)
        self.proj_k = nn.Linear(d_model, d_model, bias=False)
        self.proj_v = nn.Linear(d_model, d_model, bias=False)
        self.proj_o = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, mem, lengths_x, lengths_mem):
        batch_size = len(lengths_x)
        q = pad_packed(self.proj_q(x).view(-1, self.num_heads, self.d_head), lengths_x)
        k = pad_packed(self.proj_k(mem).view(-1, self.num_heads, self.d_head), lengths_mem)
        v = pad_packed(self.proj_v(mem).view(-1, self.num_heads, self.d_head), lengths_mem)
        e = torch.einsum("bxhd,byhd->bhxy", q, k) / math.sqrt(self.d_head)
        mask = torch.zeros(batch_size, q.shape[1], k.shape[1], device=e.device)
        for i in range(batch_size):
            mask[i, :lengths_x[i], :lengths_mem[i]] = 1
        e = e.masked_fill(mask.unsqueeze(1) == 0, -float("inf"))  # expect: fully-masked-softmax
        alpha = torch.softmax(e, dim=-1)
        out = torch.einsum("bhxy,byhd->bxhd", alpha, v).reshape(batch_size, q.shape[1], -1)
        out = torch.cat([out[i, :lengths_x[i]] for i in range(batch_size)], dim=0)
        return self.proj_o(out)


class SetReadout(nn.Module):
    def __init__(self, d_model=64, num_heads=4, n_classes=2):
        super().__init__()
        self.mha = PaddedMultiHeadAttention(d_model, num_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_model), nn.ReLU())
        self.out = nn.Linear(d_model, n_classes)

    def forward(self, feats, lengths):
        h = feats + self.mha(feats, feats, lengths, lengths)
        h = h + self.ff(h)
        pooled = torch.stack([seg.mean(dim=0) for seg in torch.split(h, lengths)])
        return self.out(pooled)


if __name__ == "__main__":
    model = SetReadout()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(50):
        lengths = torch.randint(1, 12, (8,)).tolist()
        feats = torch.randn(sum(lengths), 64)
        labels = torch.randint(0, 2, (8,))
        loss = F.cross_entropy(model(feats, lengths), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(step, loss.item())
