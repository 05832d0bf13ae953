# Source: https://github.com/iver56/automatic-video-colorization/issues/3
# Pitfall: frames are wrapped in Variable(..., volatile=True) to skip autograd at inference; since
# PyTorch 0.4 the flag does nothing, so every frame's forward pass records a graph and holds activations.
# Reproduced in our own words, not the original code.
import argparse
from pathlib import Path

import numpy as np
import torch
from PIL import Image
from torch.autograd import Variable

from colorize_net import FrameColorizer


def load_gray(path, size):
    img = Image.open(path).convert("L").resize(size)
    arr = np.asarray(img, dtype=np.float32) / 255.0
    return torch.from_numpy(arr)[None, None]


def save_rgb(tensor, path):
    arr = tensor.detach().squeeze(0).clamp(0, 1).permute(1, 2, 0).cpu().numpy()
    Image.fromarray((arr * 255).astype(np.uint8)).save(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--weights", type=Path, default=Path("colorizer.pt"))
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=360)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = FrameColorizer()
    net.load_state_dict(torch.load(args.weights, map_location=device, weights_only=True))
    net.to(device).eval()

    args.out.mkdir(parents=True, exist_ok=True)
    for frame_path in sorted(args.frames.glob("*.png")):
        gray = load_gray(frame_path, (args.width, args.height)).to(device)
        gray = Variable(gray, volatile=True)  # expect: volatile-variable
        rgb = net(gray)
        save_rgb(rgb, args.out / frame_path.name)


if __name__ == "__main__":
    main()
