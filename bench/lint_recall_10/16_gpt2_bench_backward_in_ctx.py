# Source: https://github.com/karpathy/llm.c/commit/51face88d9f651ce05efde81cebca04c9576575e
# Pitfall: the benchmark loop runs zero_grad, loss.backward() and optimizer.step() inside the autocast
#   context; the AMP recipe autocasts only the forward pass and loss, and the fix moves them out.
# Reproduced in our own words, not the original code.
import argparse
import time
from contextlib import nullcontext

import torch


def main(model_fn, batch_fn):
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", choices=["float32", "bfloat16"], default="bfloat16")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--inference_only", action="store_true")
    args = ap.parse_args()

    device = "cuda" if torch.cuda.is_available() else "cpu"
    amp_dtype = {"float32": torch.float32, "bfloat16": torch.bfloat16}[args.dtype]
    ctx = torch.autocast(device_type=device, dtype=amp_dtype) if args.dtype != "float32" else nullcontext()

    model = model_fn().to(device)
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, fused=(device == "cuda"))
    x, y = batch_fn(device)

    times = []
    for step in range(args.steps):
        t0 = time.time()
        with ctx:
            _, loss = model(x, y)
            if not args.inference_only:
                optimizer.zero_grad(set_to_none=True)
                loss.backward()  # expect: backward-inside-autocast
                optimizer.step()
        if device == "cuda":
            torch.cuda.synchronize()
        dt = time.time() - t0
        times.append(dt)
        print(f"step {step}: loss {loss.item():.4f} ({dt * 1000:.1f} ms)")
    steady = times[1:] or times
    print(f"mean step time {sum(steady) / len(steady) * 1000:.1f} ms")
