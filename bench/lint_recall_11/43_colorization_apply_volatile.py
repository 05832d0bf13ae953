"""Apply a trained frame-colorization network to every frame of a grayscale video."""
import glob
import os

import numpy as np
import torch
from PIL import Image
from torch.autograd import Variable


def load_frame(path, size=(256, 256)):
    img = Image.open(path).convert("L").resize(size)
    arr = np.asarray(img, dtype=np.float32) / 255.0
    return torch.from_numpy(arr)[None, None]


def save_frame(tensor, path):
    arr = tensor.squeeze(0).permute(1, 2, 0).clamp(0, 1).cpu().numpy()
    Image.fromarray((arr * 255).astype(np.uint8)).save(path)


def apply(net, input_dir, output_dir, checkpoint, device="cuda"):
    net.load_state_dict(torch.load(checkpoint, map_location=device, weights_only=True))
    net.to(device)
    net.eval()
    os.makedirs(output_dir, exist_ok=True)
    prev_output = None
    for path in sorted(glob.glob(os.path.join(input_dir, "*.png"))):
        frame = load_frame(path).to(device)
        if prev_output is None:
            prev_output = frame.repeat(1, 3, 1, 1)
        net_in = Variable(torch.cat([frame, prev_output], dim=1), volatile=True)  # expect: volatile-variable
        prediction = net(net_in)
        save_frame(prediction, os.path.join(output_dir, os.path.basename(path)))
        prev_output = prediction
