# Source: https://github.com/OpenBMB/VoxCPM/pull/347
# Pitfall: the fine-tuning resume path reads the model, optimizer and scheduler checkpoints with
#   plain torch.load, which unpickles arbitrary objects from a checkpoint directory someone else made.
# Reproduced in our own words, not the original code.
import argparse
import os

import torch


def load_resume_state(model, optimizer, ckpt_dir, device):
    model_path = os.path.join(ckpt_dir, "pytorch_model.bin")
    if os.path.exists(model_path):
        state = torch.load(model_path, map_location=device)  # expect: torch-load-unsafe
        model.load_state_dict(state, strict=False)
    opt_path = os.path.join(ckpt_dir, "optimizer.pth")
    if os.path.exists(opt_path):
        optimizer.load_state_dict(torch.load(opt_path, map_location=device))  # expect: torch-load-unsafe
    step_file = os.path.join(ckpt_dir, "step.txt")
    return int(open(step_file).read()) if os.path.exists(step_file) else 0


def save_state(model, optimizer, scheduler, ckpt_dir, step):
    os.makedirs(ckpt_dir, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(ckpt_dir, "pytorch_model.bin"))
    torch.save(optimizer.state_dict(), os.path.join(ckpt_dir, "optimizer.pth"))
    torch.save(scheduler.state_dict(), os.path.join(ckpt_dir, "scheduler.pth"))
    with open(os.path.join(ckpt_dir, "step.txt"), "w") as fh:
        fh.write(str(step))


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume_from", type=str, default=None)
    parser.add_argument("--save_dir", type=str, default="checkpoints")
    parser.add_argument("--lr", type=float, default=1e-4)
    return parser.parse_args()
