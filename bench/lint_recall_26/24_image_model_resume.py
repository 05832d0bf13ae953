"""timm-style checkpoint helpers used by an ImageNet training script to resume runs."""
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


def load_state_dict(checkpoint_path, use_ema=True, device="cpu"):
    checkpoint = torch.load(checkpoint_path, map_location=device, weights_only=True)
    state_dict_key = "state_dict_ema" if use_ema and "state_dict_ema" in checkpoint else "state_dict"
    return clean_state_dict(checkpoint[state_dict_key] if state_dict_key in checkpoint else checkpoint)


def resume_checkpoint(model, checkpoint_path, optimizer=None, loss_scaler=None, log_info=True):
    resume_epoch = None
    if not os.path.isfile(checkpoint_path):
        _logger.error("No checkpoint found at '{}'".format(checkpoint_path))
        raise FileNotFoundError()
    checkpoint = torch.load(checkpoint_path, map_location="cpu")  # expect: torch-load-unsafe
    if isinstance(checkpoint, dict) and "state_dict" in checkpoint:
        model.load_state_dict(clean_state_dict(checkpoint["state_dict"]))
        if optimizer is not None and "optimizer" in checkpoint:
            optimizer.load_state_dict(checkpoint["optimizer"])
        if loss_scaler is not None and loss_scaler.state_dict_key in checkpoint:
            loss_scaler.load_state_dict(checkpoint[loss_scaler.state_dict_key])
        if "epoch" in checkpoint:
            resume_epoch = checkpoint["epoch"] + 1
        if log_info:
            _logger.info("Loaded checkpoint '{}' (epoch {})".format(checkpoint_path, checkpoint.get("epoch")))
    else:
        model.load_state_dict(checkpoint)
    return resume_epoch


def save_checkpoint(model, optimizer, epoch, path, loss_scaler=None):
    state = {"epoch": epoch, "state_dict": model.state_dict(), "optimizer": optimizer.state_dict()}
    if loss_scaler is not None:
        state[loss_scaler.state_dict_key] = loss_scaler.state_dict()
    torch.save(state, path)
