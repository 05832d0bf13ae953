# Source: https://github.com/Zhen-Dong/Magic-Me/issues/14
# Pitfall: the identity-region diffusion loss is normalised by masks.sum(...) per sample; a sample
#   whose mask is empty gives 0/0 = NaN and the whole batch loss becomes NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyVideoUNet(nn.Module):
    def __init__(self, ch=4, width=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv3d(ch, width, 3, padding=1), nn.SiLU(),
            nn.Conv3d(width, width, 3, padding=1), nn.SiLU(),
            nn.Conv3d(width, ch, 3, padding=1),
        )
        self.t_embed = nn.Embedding(1000, width)

    def forward(self, x, t):
        return self.net(x) + 0.0 * self.t_embed(t).mean()


def masked_noise_loss(model, latents, masks, alphas_cumprod):
    noise = torch.randn_like(latents)
    t = torch.randint(0, len(alphas_cumprod), (latents.size(0),), device=latents.device)
    a = alphas_cumprod[t].view(-1, 1, 1, 1, 1)
    noisy = a.sqrt() * latents + (1 - a).sqrt() * noise
    pred = model(noisy, t)
    loss = F.mse_loss(pred, noise, reduction="none") * masks
    loss = loss.sum([1, 2, 3, 4]) / masks.sum([1, 2, 3, 4])  # expect: unguarded-zero
    return loss.mean()


if __name__ == "__main__":
    model = TinyVideoUNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    alphas_cumprod = torch.cumprod(1 - torch.linspace(1e-4, 0.02, 1000), dim=0)
    for step in range(20):
        latents = torch.randn(2, 4, 8, 32, 32)
        masks = (torch.rand(2, 1, 8, 32, 32) > 0.7).float().expand(-1, 4, -1, -1, -1)
        model.train()
        optimizer.zero_grad()
        loss = masked_noise_loss(model, latents, masks, alphas_cumprod)
        loss.backward()
        optimizer.step()
        print(step, loss.item())
