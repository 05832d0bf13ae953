"""nanoGPT-style: batches sliced by hand from one tensor with random offsets; row 300 holds Inf."""
import sys, torch
from torch import nn
torch.manual_seed(0)
data = torch.randn(2000, 8)
target = data[:, :1] * 3 - data[:, 1:2]
data[300, 5] = float("inf")
inside = "--loss-inside" in sys.argv

class M(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x, y=None):
        out = self.net(x)
        return (out, nn.functional.mse_loss(out, y)) if y is not None else out

def get_batch(bs=32):
    ix = torch.randint(len(data), (bs,))
    return data[ix], target[ix]

m = M(); opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
for it in range(400):
    x, y = get_batch()
    if inside:
        _, loss = m(x, y)
    else:
        loss = nn.functional.mse_loss(m(x), y)
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    if not torch.isfinite(loss):
        print(f"iter {it}: loss {loss.item()}, stopping"); sys.exit(1)
print("done")
