"""Cross-attention block with optional query slicing, used inside a denoising UNet
that is trained on latent image/text pairs."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, query_dim, context_dim=None, heads=8, dim_head=64, dropout=0.0):
        super().__init__()
        inner = heads * dim_head
        context_dim = context_dim or query_dim
        self.scale = dim_head ** -0.5
        self.heads = heads
        self.slice_size = None
        self.to_q = nn.Linear(query_dim, inner, bias=False)
        self.to_k = nn.Linear(context_dim, inner, bias=False)
        self.to_v = nn.Linear(context_dim, inner, bias=False)
        self.to_out = nn.Sequential(nn.Linear(inner, query_dim), nn.Dropout(dropout))

    def set_slice_size(self, size):
        self.slice_size = size

    def split_heads(self, t):
        b, n, _ = t.shape
        t = t.view(b, n, self.heads, -1).permute(0, 2, 1, 3)
        return t.reshape(b * self.heads, n, -1)

    def merge_heads(self, t):
        bh, n, d = t.shape
        b = bh // self.heads
        return t.view(b, self.heads, n, d).permute(0, 2, 1, 3).reshape(b, n, self.heads * d)

    def attend(self, q, k, v):
        if self.slice_size is None:
            scores = torch.bmm(q, k.transpose(1, 2)) * self.scale
            return torch.bmm(scores.softmax(dim=-1), v)
        out = torch.zeros(q.shape[0], q.shape[1], v.shape[2], device=q.device, dtype=q.dtype)
        for i in range(0, q.shape[0], self.slice_size):
            j = i + self.slice_size
            attn_slice = torch.bmm(q[i:j], k[i:j].transpose(1, 2)) * self.scale
            attn_slice = attn_slice.softmax()  # expect: softmax-without-dim
            out[i:j] = torch.bmm(attn_slice, v[i:j])
        return out

    def forward(self, x, context=None):
        context = x if context is None else context
        q = self.split_heads(self.to_q(x))
        k = self.split_heads(self.to_k(context))
        v = self.split_heads(self.to_v(context))
        return self.to_out(self.merge_heads(self.attend(q, k, v)))


def diffusion_step(unet, text_encoder, noise_scheduler, optimizer, latents, input_ids):
    noise = torch.randn_like(latents)
    t = torch.randint(0, noise_scheduler.num_train_timesteps, (latents.shape[0],), device=latents.device)
    noisy = noise_scheduler.add_noise(latents, noise, t)
    with torch.no_grad():
        context = text_encoder(input_ids)[0]
    pred = unet(noisy, t, context)
    loss = F.mse_loss(pred, noise)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
