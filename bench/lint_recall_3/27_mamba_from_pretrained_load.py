# Source: https://github.com/johnma2006/mamba-minimal/issues/1
# Pitfall: The pretrained-weights loader downloads a checkpoint from the Hub and unpickles it with
# torch.load without weights_only=True, so a tampered file could run arbitrary code.
# Reproduced in our own words, not the original code.
import json

import torch
from transformers.utils import CONFIG_NAME, WEIGHTS_NAME
from transformers.utils.hub import cached_file


def fetch_config(repo_id):
    path = cached_file(repo_id, CONFIG_NAME, _raise_exceptions_for_missing_entries=False)
    with open(path) as fh:
        return json.load(fh)


def fetch_state_dict(repo_id, device="cpu"):
    path = cached_file(repo_id, WEIGHTS_NAME, _raise_exceptions_for_missing_entries=False)
    return torch.load(path, map_location=device)  # expect: torch-load-unsafe


def from_pretrained(model_cls, args_cls, repo_id):
    cfg = fetch_config(repo_id)
    model = model_cls(args_cls(d_model=cfg["d_model"], n_layer=cfg["n_layer"], vocab_size=cfg["vocab_size"]))
    raw = fetch_state_dict(repo_id)
    cleaned = {k.replace("backbone.", ""): v for k, v in raw.items()}
    model.load_state_dict(cleaned)
    return model
