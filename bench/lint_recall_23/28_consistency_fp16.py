"""Easy consistency tuning of a pretrained diffusion denoiser with fp16 autocast."""
import copy

import torch
import torch.nn as nn


class ECTLoss:
    def __init__(self, P_mean=-1.1, P_std=2.0, sigma_data=0.5, q=2.0):
        self.P_mean, self.P_std, self.sigma_data, self.q = P_mean, P_std, sigma_data, q

    def __call__(self, net, images, ratio):
        rnd = torch.randn(images.shape[0], 1, 1, 1, device=images.device)
        t = (rnd * self.P_std + self.P_mean).exp()
        r = t * (1 - ratio)
        noise = torch.randn_like(images)
        D_t = net(images + t * noise, t)
        with torch.no_grad():
            D_r = net(images + r * noise, r)
        weight = 1 / (t - r).clamp(min=1e-4)
        return weight * ((D_t - D_r) ** 2)


def training_loop(net, loader, total_steps=200_000, lr=1e-4, loss_scaling=1.0, ema_beta=0.9993, device="cuda"):
    net = net.to(device).train()
    ema = copy.deepcopy(net).eval().requires_grad_(False)
    optimizer = torch.optim.RAdam(net.parameters(), lr=lr, betas=(0.9, 0.999))
    loss_fn = ECTLoss()
    data_iter = iter(loader)
    for step in range(total_steps):
        try:
            images = next(data_iter)[0]
        except StopIteration:
            data_iter = iter(loader)
            images = next(data_iter)[0]
        images = images.to(device)
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            loss = loss_fn(net, images, ratio=1 / (1 + step // 25_000))
        loss.sum().mul(loss_scaling / images.shape[0]).backward()  # expect: unscaled-fp16
        for param in net.parameters():
            if param.grad is not None:
                torch.nan_to_num(param.grad, nan=0, posinf=1e5, neginf=-1e5, out=param.grad)
        optimizer.step()
        with torch.no_grad():
            for p_ema, p_net in zip(ema.parameters(), net.parameters()):
                p_ema.copy_(p_net.detach().lerp(p_ema, ema_beta))
        if step % 1000 == 0:
            print(f"step {step}: loss {loss.mean().item():.5f}")
    return ema
