# Source: https://github.com/mit-han-lab/efficientvit/issues/132
# Pitfall: pretrained weights loaded with torch.load and no weights_only argument.
# Reproduced in our own words, not the original code.
import torch


def load_state_dict_from_file(file: str, only_state_dict=True):
    checkpoint = torch.load(file, map_location="cpu")  # expect: torch-load-unsafe
    if only_state_dict and "state_dict" in checkpoint:
        checkpoint = checkpoint["state_dict"]
    return checkpoint
