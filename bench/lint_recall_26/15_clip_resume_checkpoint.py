"""Resume helper for contrastive image-text training: fsspec checkpoint I/O."""
import logging
import os

import fsspec
import torch


def pt_save(pt_obj, file_path):
    of = fsspec.open(file_path, "wb")
    with of as f:
        torch.save(pt_obj, f)


def pt_load(file_path, map_location=None):
    if file_path.startswith("s3"):
        logging.info("Loading remote checkpoint, which may take a bit.")
    of = fsspec.open(file_path, "rb")
    with of as f:
        out = torch.load(f, map_location=map_location)  # expect: torch-load-unsafe
    return out


def load_checkpoint(model, optimizer, scaler, resume_path, device="cpu"):
    checkpoint = pt_load(resume_path, map_location=device)
    start_epoch = 0
    if "epoch" in checkpoint:
        start_epoch = checkpoint["epoch"]
        sd = checkpoint["state_dict"]
        if next(iter(sd.items()))[0].startswith("module"):
            sd = {k[len("module."):]: v for k, v in sd.items()}
        model.load_state_dict(sd)
        if optimizer is not None:
            optimizer.load_state_dict(checkpoint["optimizer"])
        if scaler is not None and "scaler" in checkpoint:
            scaler.load_state_dict(checkpoint["scaler"])
        logging.info(f"=> resuming checkpoint '{resume_path}' (epoch {start_epoch})")
    else:
        model.load_state_dict(checkpoint)
    return start_epoch


def save_checkpoint(model, optimizer, scaler, epoch, out_dir, name="epoch_latest.pt"):
    state = {
        "epoch": epoch,
        "state_dict": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scaler": scaler.state_dict() if scaler is not None else None,
    }
    pt_save(state, os.path.join(out_dir, name))
