"""A plain loop that logs to TensorBoard (torch's SummaryWriter, MLflow with --mlflow, or
W&B offline with --wandb, finishing its run itself); row 300 of the data holds NaN, so the
loss goes NaN at the step that draws it."""
import sys
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
x = torch.randn(512, 8)
y = x[:, :1] * 2
x[300, 3] = float("nan")
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
use_mlflow = "--mlflow" in sys.argv
use_wandb = "--wandb" in sys.argv
if use_wandb:
    import wandb

    wrun = wandb.init(project="tb_nan", mode="offline")
elif use_mlflow:
    import os

    import mlflow

    os.environ.setdefault("MLFLOW_ALLOW_FILE_STORE", "true")  # a local store, no server
    mlflow.set_tracking_uri("file:./mlruns")
    mlflow.start_run()
else:
    from torch.utils.tensorboard import SummaryWriter

    tb = SummaryWriter("tb/exp1")
step = 0
for epoch in range(2):
    for xb, yb in DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True):
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step()
        if use_wandb:
            wandb.log({"loss": loss.item()}, step=step)
        elif use_mlflow:
            mlflow.log_metric("loss", loss.item(), step=step)
        else:
            tb.add_scalar("train/loss", loss.item(), step)
        step += 1
if use_wandb:
    print("run id", wrun.id)
    wandb.finish()  # the run is closed before traindoc's end-of-run diagnosis
elif use_mlflow:
    mlflow.end_run()
else:
    tb.close()
print("done")
