import time

import numpy as np
import torch


def eval_policy(env, policy, num_episodes=10, max_steps=300, device="cuda"):
    start = time.time()
    sum_rewards, max_rewards, successes = [], [], []
    for ep in range(num_episodes):
        obs, _ = env.reset(seed=ep)
        ep_rewards = []
        success = False
        for _ in range(max_steps):
            batch = {k: torch.as_tensor(v, device=device).unsqueeze(0) for k, v in obs.items()}
            with torch.inference_mode():
                action = policy.select_action(batch)  # expect: validation-in-train-mode
            obs, reward, terminated, truncated, info = env.step(action.squeeze(0).cpu().numpy())
            ep_rewards.append(reward)
            success = success or info.get("is_success", False)
            if terminated or truncated:
                break
        sum_rewards.append(float(np.sum(ep_rewards)))
        max_rewards.append(float(np.max(ep_rewards)))
        successes.append(success)
    return {
        "avg_sum_reward": float(np.mean(sum_rewards)),
        "avg_max_reward": float(np.mean(max_rewards)),
        "pc_success": 100.0 * float(np.mean(successes)),
        "eval_s": time.time() - start,
    }


def train(policy, optimizer, offline_loader, env, steps, eval_freq=5000, log_freq=200, device="cuda"):
    step = 0
    data_iter = iter(offline_loader)
    while step < steps:
        try:
            batch = next(data_iter)
        except StopIteration:
            data_iter = iter(offline_loader)
            batch = next(data_iter)
        batch = {k: v.to(device) for k, v in batch.items()}
        policy.train()
        out = policy(batch)
        loss = out["loss"]
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(policy.parameters(), 10.0)
        optimizer.step()
        if step % log_freq == 0:
            print(f"step {step} loss {loss.item():.4f}")
        if step > 0 and step % eval_freq == 0:
            info = eval_policy(env, policy, device=device)
            print(f"eval @ {step}: {info}")
        step += 1
