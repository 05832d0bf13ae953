# Source: https://github.com/lucidrains/DALLE-pytorch/commit/02f055486438290733d20d200b54cd9282d2c41b
# Pitfall: the text branch of the attention calls the out-of-place masked_fill as a bare statement, so the
#   causal mask is thrown away and text tokens attend to future tokens during training.
# Reproduced in our own words, not the original code.
import torch
from torch import nn, einsum


def most_negative(t):
    return -torch.finfo(t.dtype).max


class TextImageCausalAttention(nn.Module):
    def __init__(self, dim, text_len, heads=8, dim_head=64, dropout=0.0):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.text_len = text_len
        self.scale = dim_head ** -0.5
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.to_out = nn.Sequential(nn.Linear(inner, dim), nn.Dropout(dropout))

    def forward(self, x):
        b, n, _ = x.shape
        h = self.heads
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (t.view(b, n, h, -1).transpose(1, 2).reshape(b * h, n, -1) for t in (q, k, v))
        q = q * self.scale

        q_txt, k_txt, v_txt = q[:, :self.text_len], k[:, :self.text_len], v[:, :self.text_len]
        sim_txt = einsum("b i d, b j d -> b i j", q_txt, k_txt)
        i, j = sim_txt.shape[-2:]
        future = torch.ones(i, j, device=x.device).triu_(j - i + 1).bool()
        sim_txt.masked_fill(future, most_negative(sim_txt))  # expect: tensor-op-result-discarded
        out_txt = einsum("b i j, b j d -> b i d", sim_txt.softmax(dim=-1), v_txt)

        # image tokens attend to all text and to earlier image tokens
        sim_img = einsum("b i d, b j d -> b i j", q[:, self.text_len:], k)
        ii, jj = sim_img.shape[-2:]
        img_future = torch.ones(ii, jj, device=x.device).triu_(jj - ii + 1).bool()
        sim_img = sim_img.masked_fill(img_future, most_negative(sim_img))
        out_img = einsum("b i j, b j d -> b i d", sim_img.softmax(dim=-1), v)

        out = torch.cat((out_txt, out_img), dim=1)
        out = out.view(b, h, n, -1).transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out)
