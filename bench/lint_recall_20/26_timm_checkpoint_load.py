"""Load a classification checkpoint for evaluation or fine-tuning (timm-style helper)."""
import logging
import os
from collections import OrderedDict

import torch

_logger = logging.getLogger(__name__)


def clean_state_dict(state_dict):
    cleaned = OrderedDict()
    for k, v in state_dict.items():
        cleaned[k[7:] if k.startswith("module.") else k] = v
    return cleaned


def load_state_dict(checkpoint_path, use_ema=True):
    if not checkpoint_path or not os.path.isfile(checkpoint_path):
        raise FileNotFoundError(f"No checkpoint found at '{checkpoint_path}'")
    checkpoint = torch.load(checkpoint_path, map_location="cpu")  # expect: torch-load-unsafe
    state_dict_key = ""
    if isinstance(checkpoint, dict):
        if use_ema and checkpoint.get("state_dict_ema") is not None:
            state_dict_key = "state_dict_ema"
        elif checkpoint.get("state_dict") is not None:
            state_dict_key = "state_dict"
    state_dict = clean_state_dict(checkpoint[state_dict_key] if state_dict_key else checkpoint)
    _logger.info("Loaded %s from checkpoint '%s'", state_dict_key or "weights", checkpoint_path)
    return state_dict


def load_checkpoint(model, checkpoint_path, use_ema=True, strict=True, remap_classifier=None):
    state_dict = load_state_dict(checkpoint_path, use_ema)
    if remap_classifier is not None:
        for key in list(state_dict):
            if key.startswith(remap_classifier):
                state_dict.pop(key)
        strict = False
    incompatible = model.load_state_dict(state_dict, strict=strict)
    return incompatible


def evaluate(model, loader, device):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for images, targets in loader:
            images, targets = images.to(device), targets.to(device)
            correct += (model(images).argmax(dim=1) == targets).sum().item()
            total += targets.numel()
    return correct / max(total, 1)
