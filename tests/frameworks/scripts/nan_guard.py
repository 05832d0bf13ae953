import sys, torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
X = torch.randn(512, 8); Y = X[:, :1] * 2
X[300, 3] = float("nan")
m = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(m.parameters(), lr=1e-2)
mode = sys.argv[1] if len(sys.argv) > 1 else "continue"
for ep in range(2):
    for i, (x, yy) in enumerate(DataLoader(TensorDataset(X, Y), batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(ep))):
        loss = nn.functional.mse_loss(m(x), yy)
        if torch.isnan(loss):
            print("nan loss at", ep, i, "skipping")
            if mode == "break":
                break
            if mode == "exit":  # the skipped NaN is the last thing the run does
                sys.exit(0)
            continue
        opt.zero_grad(); loss.backward(); opt.step()
print("done")
