# Source: https://github.com/tatsu-lab/alpaca_farm/issues/57
# Pitfall: Inside accelerator.accumulate(), the wrapped optimizer skips step() and zero_grad() on non-sync micro-steps, but the code clears gradients through policy.zero_grad() on the model, which always runs, so every micro-step throws away the accumulated gradients.
# Reproduced in our own words, not the original code.
import torch
from accelerate import Accelerator


def ppo_update(policy, optimizer, rollouts, compute_loss, accumulation_steps=8):
    accelerator = Accelerator(gradient_accumulation_steps=accumulation_steps)
    policy, optimizer = accelerator.prepare(policy, optimizer)
    policy.train()
    stats = []
    for minibatch in rollouts:
        with accelerator.accumulate(policy):
            loss = compute_loss(policy, minibatch)
            accelerator.backward(loss)
            if accelerator.sync_gradients:
                accelerator.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()
            policy.zero_grad(set_to_none=True)  # expect: grad-cleared-before-step
        stats.append(loss.detach().float().item())
    return sum(stats) / max(len(stats), 1)


def make_optimizer(policy, lr=1e-5):
    return torch.optim.AdamW(policy.parameters(), lr=lr, eps=1e-5)
