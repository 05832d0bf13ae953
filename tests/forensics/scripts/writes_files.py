"""A script that owns an output folder the way real training scripts do: it clears it at
start, then writes checkpoints (torch.save, np.save, pickle), a CSV log (open "w" then
appends) and TensorBoard events after every step, and stops on a NaN from one bad sample.
The replay re-runs all of that: every file must stay as the real run wrote it."""
import os
import pickle
import shutil
import sys

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

BAD = 300


class Table(Dataset):
    def __init__(self, n=512):
        rng = np.random.default_rng(0)
        self.x = rng.normal(size=(n, 8)).astype(np.float32)
        self.x[BAD, 2] = np.inf
        self.y = self.x[:, :2].sum(1).astype(np.float32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), torch.tensor(self.y[i])


def main():
    out = sys.argv[1]
    shutil.rmtree(out, ignore_errors=True)  # a fresh output folder for every run
    os.makedirs(out)
    writer = None
    if "--tensorboard" in sys.argv:
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(os.path.join(out, "tb"))
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    loader = DataLoader(Table(), batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(0))
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    with open(os.path.join(out, "metrics.csv"), "w") as f:
        f.write("step,loss\n")
    for step, (x, y) in enumerate(loader):
        loss = nn.functional.mse_loss(model(x).squeeze(-1), y)
        opt.zero_grad()
        loss.backward()
        with open(os.path.join(out, "metrics.csv"), "a") as f:
            f.write(f"{step},{loss.item()}\n")
        if writer is not None:
            writer.add_scalar("loss", loss.item(), step)
            writer.flush()
        if not torch.isfinite(loss):
            print(f"stopped at step {step}")
            sys.exit(1)
        opt.step()
        torch.save({"step": step, "model": model.state_dict()}, os.path.join(out, "last.pt"))
        np.save(os.path.join(out, "weights.npy"), model[0].weight.detach().numpy())
        with open(os.path.join(out, "state.pkl"), "wb") as f:
            pickle.dump({"step": step}, f)


if __name__ == "__main__":
    main()
