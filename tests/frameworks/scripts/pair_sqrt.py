"""A siamese loss without a DataLoader: the encoder runs twice per step (two views), one
backward; a hand-written distance sqrt(sum((a - b)^2)) has a NaN gradient where a pair is the
same item (distance exactly 0). Step 7's pair at row 3 is item 42 twice."""
import sys, torch
from torch import nn
torch.manual_seed(0)
items = torch.randn(500, 16)
enc = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
opt = torch.optim.SGD(enc.parameters(), lr=0.05)
for step in range(40):
    i = torch.randint(0, 500, (16,))
    j = (i + 1 + torch.randint(0, 498, (16,))) % 500  # never the same item...
    if step == 7:
        i[3] = j[3] = 42  # ...except here
    za, zb = enc(items[i]), enc(items[j])
    d = ((za - zb) ** 2).sum(1).sqrt()
    loss = torch.clamp(2.0 - d, min=0).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    if not all(torch.isfinite(p).all() for p in enc.parameters()):
        print(f"step {step}: weights non-finite, stopping"); sys.exit(1)
print("done")
