# Source: https://github.com/NVIDIA-NeMo/Megatron-Bridge/pull/3506
# Pitfall: on resume the train-state file is read with a plain torch.load, which unpickles arbitrary
#   objects; a poisoned train_state.pt in a checkpoint directory runs code on the training host.
# Reproduced in our own words, not the original code.
import os
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class TrainState:
    step: int = 0
    consumed_samples: int = 0
    floating_point_operations_so_far: float = 0.0
    do_valid: bool = False

    def state_dict(self):
        return {
            "step": torch.tensor(self.step, dtype=torch.int64),
            "consumed_samples": torch.tensor(self.consumed_samples, dtype=torch.int64),
            "floating_point_operations_so_far": torch.tensor(self.floating_point_operations_so_far,
                                                             dtype=torch.float64),
            "do_valid": torch.tensor(self.do_valid, dtype=torch.bool),
        }

    def load_state_dict(self, sd):
        self.step = int(sd["step"].item())
        self.consumed_samples = int(sd["consumed_samples"].item())
        self.floating_point_operations_so_far = float(sd["floating_point_operations_so_far"].item())
        self.do_valid = bool(sd["do_valid"].item())


def read_train_state(train_state_filename):
    state_dict = torch.load(train_state_filename, map_location="cpu")  # expect: torch-load-unsafe
    ts = TrainState()
    ts.load_state_dict(state_dict)
    return ts


def save_checkpoint(ckpt_dir, model, optimizer, ts):
    os.makedirs(ckpt_dir, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(ckpt_dir, "model.pt"))
    torch.save(optimizer.state_dict(), os.path.join(ckpt_dir, "optim.pt"))
    torch.save(ts.state_dict(), os.path.join(ckpt_dir, "train_state.pt"))


def load_checkpoint(ckpt_dir, model, optimizer):
    model.load_state_dict(torch.load(os.path.join(ckpt_dir, "model.pt"), map_location="cpu",
                                     weights_only=True))
    optimizer.load_state_dict(torch.load(os.path.join(ckpt_dir, "optim.pt"), map_location="cpu",
                                         weights_only=True))
    return read_train_state(os.path.join(ckpt_dir, "train_state.pt"))


def pretrain(ckpt_dir="ckpt", total_steps=200, micro_batch=8):
    model = nn.Sequential(nn.Embedding(1000, 64), nn.Flatten(), nn.Linear(64 * 16, 1000))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    ts = load_checkpoint(ckpt_dir, model, optimizer) if os.path.isdir(ckpt_dir) else TrainState()
    model.train()
    while ts.step < total_steps:
        tokens = torch.randint(0, 1000, (micro_batch, 16))
        target = torch.randint(0, 1000, (micro_batch,))
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(tokens), target)
        loss.backward()
        optimizer.step()
        ts.step += 1
        ts.consumed_samples += micro_batch
        if ts.step % 50 == 0:
            save_checkpoint(ckpt_dir, model, optimizer, ts)


if __name__ == "__main__":
    pretrain()
