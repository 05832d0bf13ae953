# Source: https://github.com/lllyasviel/Fooocus/pull/3427
# Pitfall: Downloaded model patches (inpaint heads, upscalers) are opened with torch.load and no
# weights_only argument, unpickling files that come from the internet.
# Reproduced in our own words, not the original code.
import os

import torch


def load_inpaint_head(model_dir, filename, device):
    path = os.path.join(model_dir, filename)
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    head_sd = torch.load(path, map_location=device)  # expect: torch-load-unsafe
    head = torch.nn.Conv2d(5, 320, kernel_size=3, padding=1, bias=False)
    head.load_state_dict(head_sd)
    return head.to(device)
