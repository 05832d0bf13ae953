"""Loads a LoRA / embedding checkpoint back into a diffusion fine-tuning run."""
import contextlib
import os

import torch
from safetensors.torch import load_file


class LoRALoader:
    def __init__(self, device="cuda"):
        self.device = device

    def _load_state(self, path: str) -> dict:
        if path.endswith(".safetensors"):
            return load_file(path, device="cpu")
        return torch.load(path, map_location="cpu")  # expect: torch-load-unsafe

    def load_lora(self, model, lora_path: str):
        state = self._load_state(lora_path)
        model.lora_state_dict = state
        missing, unexpected = model.unet_lora.load_state_dict(state, strict=False)
        if unexpected:
            print(f"ignored {len(unexpected)} unexpected LoRA keys")
        return missing

    def load_embedding(self, path: str):
        with contextlib.suppress(FileNotFoundError):
            return load_file(path)["emb_params"]
        return None

    def load_training_state(self, model, run_dir: str):
        opt_path = os.path.join(run_dir, "optimizer", "optimizer.pt")
        if os.path.exists(opt_path):
            model.optimizer_state_dict = torch.load(opt_path, map_location="cpu", weights_only=True)
        ema_path = os.path.join(run_dir, "ema", "ema.safetensors")
        if os.path.exists(ema_path):
            model.ema_state_dict = load_file(ema_path)


def resume(model, optimizer, run_dir):
    loader = LoRALoader()
    loader.load_lora(model, os.path.join(run_dir, "lora.pt"))
    loader.load_training_state(model, run_dir)
    if getattr(model, "optimizer_state_dict", None) is not None:
        optimizer.load_state_dict(model.optimizer_state_dict)
    return model, optimizer
