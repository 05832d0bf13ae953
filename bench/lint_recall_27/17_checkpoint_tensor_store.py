"""Utilities that reload a training checkpoint (state dict or whole module) before export/fine-tuning."""
from pathlib import Path

import torch
import torch.nn as nn


def _iter_tensors_from_store(path: Path):
    """Yield (name, tensor) pairs from a saved state dict or a pickled nn.Module."""
    obj = torch.load(path, map_location="cpu")  # expect: torch-load-unsafe
    if isinstance(obj, nn.Module):
        obj = obj.state_dict()
    if "model_state_dict" in obj:
        obj = obj["model_state_dict"]
    for name, value in obj.items():
        if isinstance(value, torch.Tensor):
            yield name, value


def load_checkpoint(model: nn.Module, path: Path, strict=True):
    state = dict(_iter_tensors_from_store(path))
    missing, unexpected = model.load_state_dict(state, strict=strict)
    return missing, unexpected


def finetune_from(model, path, loader, epochs=1, lr=1e-4, device="cpu"):
    load_checkpoint(model, Path(path), strict=False)
    model.to(device)
    opt = torch.optim.AdamW((p for p in model.parameters() if p.requires_grad), lr=lr)
    model.train()
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
    return model


def save_checkpoint(model: nn.Module, path: Path, step: int):
    torch.save({"model_state_dict": model.state_dict(), "step": step}, path)
