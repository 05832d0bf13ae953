# Source: https://github.com/jadore801120/attention-is-all-you-need-pytorch/issues/52
# Pitfall: the scaled dot-product attention builds nn.Softmax() without a dim; on the 3-D score
#   tensor (batch*heads, len_q, len_k) the implicit choice is dim 0, so weights mix across the batch.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature, attn_dropout=0.1):
        super().__init__()
        self.temperature = temperature
        self.dropout = nn.Dropout(attn_dropout)
        self.softmax = nn.Softmax()  # expect: softmax-without-dim

    def forward(self, q, k, v, mask=None):
        attn = torch.bmm(q, k.transpose(1, 2)) / self.temperature
        if mask is not None:
            attn = attn.masked_fill(mask, -1e9)
        attn = self.dropout(self.softmax(attn))
        return torch.bmm(attn, v), attn


class MultiHeadAttention(nn.Module):
    def __init__(self, n_head=8, d_model=512, d_k=64, d_v=64, dropout=0.1):
        super().__init__()
        self.n_head, self.d_k, self.d_v = n_head, d_k, d_v
        self.w_qs = nn.Linear(d_model, n_head * d_k)
        self.w_ks = nn.Linear(d_model, n_head * d_k)
        self.w_vs = nn.Linear(d_model, n_head * d_v)
        self.attention = ScaledDotProductAttention(temperature=d_k ** 0.5)
        self.layer_norm = nn.LayerNorm(d_model)
        self.fc = nn.Linear(n_head * d_v, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, q, k, v, mask=None):
        sz_b, len_q, _ = q.size()
        len_k = k.size(1)
        residual = q
        q = self.w_qs(q).view(sz_b, len_q, self.n_head, self.d_k).permute(2, 0, 1, 3).reshape(-1, len_q, self.d_k)
        k = self.w_ks(k).view(sz_b, len_k, self.n_head, self.d_k).permute(2, 0, 1, 3).reshape(-1, len_k, self.d_k)
        v = self.w_vs(v).view(sz_b, len_k, self.n_head, self.d_v).permute(2, 0, 1, 3).reshape(-1, len_k, self.d_v)
        if mask is not None:
            mask = mask.repeat(self.n_head, 1, 1)
        output, attn = self.attention(q, k, v, mask=mask)
        output = output.view(self.n_head, sz_b, len_q, self.d_v).permute(1, 2, 0, 3).reshape(sz_b, len_q, -1)
        return self.layer_norm(self.dropout(self.fc(output)) + residual), attn


class TinyTranslator(nn.Module):
    def __init__(self, vocab=8000, d_model=512):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model, padding_idx=0)
        self.self_attn = MultiHeadAttention(d_model=d_model)
        self.proj = nn.Linear(d_model, vocab)

    def forward(self, src):
        x = self.emb(src)
        pad_mask = (src == 0).unsqueeze(1).expand(-1, src.size(1), -1)
        x, _ = self.self_attn(x, x, x, mask=pad_mask)
        return self.proj(x)


if __name__ == "__main__":
    model = TinyTranslator()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9)
    for step in range(20):
        src = torch.randint(1, 8000, (16, 30))
        gold = torch.randint(1, 8000, (16, 30))
        model.train()
        optimizer.zero_grad()
        logits = model(src)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), gold.view(-1), ignore_index=0)
        loss.backward()
        optimizer.step()
        print(step, loss.item())
