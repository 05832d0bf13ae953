"""Resume a pretraining run from a saved training-state file (model, optimizer, scheduler)."""
import os

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR


def build_model():
    return nn.Sequential(nn.Embedding(1000, 64), nn.Flatten(), nn.Linear(64 * 16, 1000))


def build_optimizer(model):
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1)
    sched = LambdaLR(opt, lambda step: min(1.0, (step + 1) / 100))
    return opt, sched


def save_state(path, model, opt, sched, step):
    torch.save(
        {"model": model.state_dict(), "optimizer": opt.state_dict(),
         "scheduler": sched.state_dict(), "step": step},
        path,
    )


def load_state(path, model, opt, sched):
    payload = torch.load(path, map_location="cpu")  # expect: torch-load-unsafe
    model.load_state_dict(payload["model"])
    opt.load_state_dict(payload["optimizer"])
    sched.load_state_dict(payload["scheduler"])
    return payload["step"]


def train(total_steps=500, ckpt_dir="ckpts"):
    os.makedirs(ckpt_dir, exist_ok=True)
    model = build_model()
    opt, sched = build_optimizer(model)
    latest = os.path.join(ckpt_dir, "latest.pt")
    start = load_state(latest, model, opt, sched) if os.path.exists(latest) else 0
    loss_fn = nn.CrossEntropyLoss()
    model.train()
    for step in range(start, total_steps):
        x = torch.randint(0, 1000, (8, 16))
        y = torch.randint(0, 1000, (8,))
        loss = loss_fn(model(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        if (step + 1) % 100 == 0:
            save_state(latest, model, opt, sched, step + 1)
            print(step + 1, loss.item())


if __name__ == "__main__":
    train()
