# Source: https://github.com/karpathy/nanoGPT/pull/87
# Pitfall: before this PR, setting dtype='float16' trained under a float16 autocast context
# with no GradScaler (GPUs without bfloat16).
# Reproduced in our own words, not the original code.
import torch

dtype = "float16"
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
ctx = torch.amp.autocast(device_type="cuda", dtype=ptdtype)  # expect: unscaled-fp16


def train(model, optimizer, get_batch, max_iters):
    for it in range(max_iters):
        X, Y = get_batch("train")
        with ctx:
            logits, loss = model(X, Y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
