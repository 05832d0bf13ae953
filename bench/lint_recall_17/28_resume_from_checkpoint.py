"""Resume a fine-tuning run: model weights, optimizer state and step counter from a checkpoint folder."""
import os
from pathlib import Path

import torch
from torch import nn


def load_training_state(model, optimizer, scheduler, input_dir):
    input_dir = Path(input_dir)
    input_model_file = input_dir / "pytorch_model.bin"
    state_dict = torch.load(input_model_file, map_location="cpu")  # expect: torch-load-unsafe
    model.load_state_dict(state_dict)
    optimizer.load_state_dict(torch.load(input_dir / "optimizer.bin", map_location="cpu", weights_only=True))
    scheduler.load_state_dict(torch.load(input_dir / "scheduler.bin", weights_only=True))
    step_file = input_dir / "step.txt"
    return int(step_file.read_text()) if step_file.exists() else 0


def save_training_state(model, optimizer, scheduler, step, output_dir):
    os.makedirs(output_dir, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(output_dir, "pytorch_model.bin"))
    torch.save(optimizer.state_dict(), os.path.join(output_dir, "optimizer.bin"))
    torch.save(scheduler.state_dict(), os.path.join(output_dir, "scheduler.bin"))
    Path(output_dir, "step.txt").write_text(str(step))


def train(model, loader, ckpt_dir, total_steps=1000, save_every=200):
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: max(0.0, 1 - s / total_steps))
    step = load_training_state(model, optimizer, scheduler, ckpt_dir) if os.path.isdir(ckpt_dir) else 0
    loss_fn = nn.CrossEntropyLoss()
    model.train()
    while step < total_steps:
        for x, y in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            scheduler.step()
            step += 1
            if step % save_every == 0:
                save_training_state(model, optimizer, scheduler, step, ckpt_dir)
            if step >= total_steps:
                break
