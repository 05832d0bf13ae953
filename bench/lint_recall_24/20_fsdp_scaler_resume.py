"""Resume helper for a sharded (FSDP) training run with a mixed-precision grad scaler."""
import os

import torch
from torch.distributed.checkpoint import FileSystemReader, load
from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict

SCALER_NAME = "scaler.pt"


def save_state(output_dir, model, optimizer, scaler, step):
    os.makedirs(output_dir, exist_ok=True)
    from torch.distributed.checkpoint import FileSystemWriter, save

    model_sd, optim_sd = get_state_dict(model, optimizer)
    save({"model": model_sd, "optim": optim_sd}, storage_writer=FileSystemWriter(output_dir))
    if scaler is not None and torch.distributed.get_rank() == 0:
        torch.save(scaler.state_dict(), os.path.join(output_dir, SCALER_NAME))
    torch.save({"step": step}, os.path.join(output_dir, f"meta_{torch.distributed.get_rank()}.pt"))


def load_state(input_dir, model, optimizer, scaler):
    model_sd, optim_sd = get_state_dict(model, optimizer)
    state = {"model": model_sd, "optim": optim_sd}
    load(state, storage_reader=FileSystemReader(input_dir))
    set_state_dict(model, optimizer, model_state_dict=state["model"], optim_state_dict=state["optim"])

    input_scaler_file = os.path.join(input_dir, SCALER_NAME)
    if scaler is not None and os.path.isfile(input_scaler_file):
        scaler_state = torch.load(input_scaler_file)  # expect: torch-load-unsafe
        scaler.load_state_dict(scaler_state)
    meta = torch.load(os.path.join(input_dir, f"meta_{torch.distributed.get_rank()}.pt"), weights_only=True)
    return meta["step"]
