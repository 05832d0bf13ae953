"""Diffusion planner training epoch: denoising loss on future trajectories, epoch-level stats."""
import numpy as np
import torch
import torch.nn as nn


def add_noise(x0, t, alphas_cumprod):
    a = alphas_cumprod[t].view(-1, 1, 1)
    noise = torch.randn_like(x0)
    return a.sqrt() * x0 + (1 - a).sqrt() * noise, noise


def train_epoch(model, loader, optimizer, alphas_cumprod, device, max_norm=5.0):
    model.train()
    epoch_loss = []
    for batch in loader:
        ego_future = batch["ego_future"].to(device)
        context = batch["context"].to(device)
        t = torch.randint(0, len(alphas_cumprod), (ego_future.size(0),), device=device)
        noisy, noise = add_noise(ego_future, t, alphas_cumprod)
        pred_noise = model(noisy, t, context)
        loss = nn.functional.mse_loss(pred_noise, noise)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        epoch_loss.append(loss)  # expect: running-loss-keeps-graph
    epoch_mean = torch.stack(epoch_loss).mean().item()
    return {"loss": epoch_mean, "n_batches": len(epoch_loss)}


def fit(model, loader, epochs=100, lr=5e-4, device="cuda"):
    model = model.to(device)
    betas = torch.linspace(1e-4, 0.02, 1000, device=device)
    alphas_cumprod = torch.cumprod(1 - betas, dim=0)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-2)
    history = []
    for epoch in range(epochs):
        stats = train_epoch(model, loader, optimizer, alphas_cumprod, device)
        history.append(stats["loss"])
        print(f"epoch {epoch}: loss {stats['loss']:.5f} (best {np.min(history):.5f})")
    return history
