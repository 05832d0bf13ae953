"""Resume contrastive image-text training from a (possibly remote) checkpoint."""
import logging

import fsspec
import torch

_logger = logging.getLogger(__name__)


def pt_save(pt_obj, file_path):
    of = fsspec.open(file_path, "wb")
    with of as f:
        torch.save(pt_obj, f)


def pt_load(file_path, map_location=None):
    if file_path.startswith("s3"):
        _logger.info("Loading remote checkpoint, which may take a bit.")
    of = fsspec.open(file_path, "rb")
    with of as f:
        out = torch.load(f, map_location=map_location)  # expect: torch-load-unsafe
    return out


def load_checkpoint(model, optimizer, scaler, resume_path, device="cpu"):
    checkpoint = pt_load(resume_path, map_location=device)
    sd = checkpoint["state_dict"]
    if next(iter(sd.items()))[0].startswith("module"):
        sd = {k[len("module."):]: v for k, v in sd.items()}
    model.load_state_dict(sd)
    start_epoch = checkpoint["epoch"]
    if optimizer is not None:
        optimizer.load_state_dict(checkpoint["optimizer"])
    if scaler is not None and "scaler" in checkpoint:
        scaler.load_state_dict(checkpoint["scaler"])
    _logger.info("=> resuming checkpoint '%s' (epoch %d)", resume_path, start_epoch)
    return start_epoch


def save_checkpoint(model, optimizer, scaler, epoch, path):
    pt_save(
        {
            "epoch": epoch,
            "state_dict": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "scaler": scaler.state_dict() if scaler is not None else None,
        },
        path,
    )
