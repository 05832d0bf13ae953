# Source: https://github.com/Dao-AILab/flash-attention/pull/2585
# Pitfall: the training utilities load checkpoints with plain torch.load (pickle, arbitrary
# code execution on a crafted file).
# Reproduced in our own words, not the original code.
import torch


def load_checkpoint(path, device="cpu"):
    state_dict = torch.load(path, map_location=device)  # expect: torch-load-unsafe
    if "pytorch-lightning_version" in state_dict:
        state_dict = {k[len("model."):]: v for k, v in state_dict["state_dict"].items() if k.startswith("model.")}
    return state_dict
