# Source: https://github.com/meta-pytorch/torchtune/pull/108
# Pitfall: The checkpoint utility restores model and optimizer state with a bare torch.load, which
# unpickles arbitrary objects; the fix passes weights_only=True.
# Reproduced in our own words, not the original code.
import torch


def save_checkpoint(path, model, optimizer, epoch):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, path)


def load_checkpoint(path, model, optimizer=None):
    ckpt_dict = torch.load(path, map_location="cpu")  # expect: torch-load-unsafe
    model.load_state_dict(ckpt_dict["model"])
    if optimizer is not None and "optimizer" in ckpt_dict:
        optimizer.load_state_dict(ckpt_dict["optimizer"])
    return ckpt_dict.get("epoch", 0)


def resume_or_start(path, model, optimizer):
    try:
        return load_checkpoint(path, model, optimizer) + 1
    except FileNotFoundError:
        return 0
