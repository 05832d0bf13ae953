"""Convert a PyTorch checkpoint to a flat .npz for another runtime."""
import argparse
from pathlib import Path

import numpy as np
import torch


def rename(key: str) -> str:
    key = key.replace("model.", "")
    key = key.replace("self_attn", "attention")
    key = key.replace("mlp.", "feed_forward.")
    return key


def convert(torch_path: Path, out_path: Path, dtype: str = "float16"):
    torch_weights = torch.load(torch_path / "pytorch_model.bin")  # expect: torch-load-unsafe
    weights = {}
    for k, v in torch_weights.items():
        arr = v.to(torch.float32).numpy()
        weights[rename(k)] = arr.astype(np.dtype(dtype))
    np.savez(out_path, **weights)
    return len(weights)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--torch-path", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=Path("weights.npz"))
    parser.add_argument("--dtype", default="float16")
    args = parser.parse_args()
    n = convert(args.torch_path, args.out, args.dtype)
    print(f"wrote {n} tensors to {args.out}")
