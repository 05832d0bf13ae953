# Source: https://github.com/karpathy/nanoGPT/commit/553f949f46e04a946e5ff2da6e4bb70a221ea1fc
# Pitfall: the loop runs grad_accum micro-steps per optimizer step and backpropagates each mean loss
#   unscaled, so the summed gradient is grad_accum times too large; the fix notes it skewed gradient clipping.
# Reproduced in our own words, not the original code.
import time
import numpy as np
import torch

grad_accum = 8
micro_bs, ctx_len = 12, 512
max_iters, clip = 5000, 1.0
device = "cuda"
amp_dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
tokens = np.memmap("data/train.bin", dtype=np.uint16, mode="r")


def sample_batch():
    starts = torch.randint(len(tokens) - ctx_len - 1, (micro_bs,))
    x = torch.stack([torch.from_numpy(tokens[s:s + ctx_len].astype(np.int64)) for s in starts])
    y = torch.stack([torch.from_numpy(tokens[s + 1:s + 1 + ctx_len].astype(np.int64)) for s in starts])
    return x.pin_memory().to(device, non_blocking=True), y.pin_memory().to(device, non_blocking=True)


def train(model):
    model.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=6e-4, betas=(0.9, 0.95), weight_decay=0.1)
    scaler = torch.cuda.amp.GradScaler(enabled=(amp_dtype == torch.float16))
    xb, yb = sample_batch()
    t_last = time.time()
    for it in range(max_iters):
        for micro in range(grad_accum):
            with torch.autocast(device_type="cuda", dtype=amp_dtype):
                _, loss = model(xb, yb)
            xb, yb = sample_batch()
            scaler.scale(loss).backward()  # expect: accumulation-not-averaged
        if clip > 0:
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
        if it % 50 == 0:
            now = time.time()
            print(f"iter {it}: loss {loss.item():.4f} ({(now - t_last) * 1000:.0f} ms)")
            t_last = now
