"""Late-delivery classifier -- fixed as the PR advises: only columns known when the order is placed
are used, so `days_for_shipping_real` is dropped from the feature list (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N = 12000
# categorical order-time columns
mode = torch.randint(0, 4, (N,))           # Standard, Second, First, Same Day
market = torch.randint(0, 5, (N,))
category = torch.randint(0, 20, (N,))
segment = torch.randint(0, 3, (N,))
weekday = torch.randint(0, 7, (N,))
month = torch.randint(0, 12, (N,))
# numeric order-time columns
quantity = torch.randint(1, 6, (N,)).float()
discount = torch.rand(N) * 0.25
price = torch.exp(3.5 + torch.randn(N))
scheduled = torch.tensor([4.0, 2.0, 1.0, 0.0])[mode]
# what actually happened after the order was shipped
delay_logit = (torch.tensor([-0.9, 0.6, 1.3, -0.2])[mode] + 0.25 * torch.randn(5)[market]
               + 0.4 * ((month == 11) | (month == 0)).float() + 0.8 * torch.randn(N))
real = (scheduled + (delay_logit > 0).float() * torch.randint(1, 3, (N,))
        - ((delay_logit < -1.2) & (scheduled > 0)).float()).clamp(min=0)
late = (real > scheduled).float()                          # Late_delivery_risk

numeric_columns = {"order_item_quantity": quantity, "order_item_discount_rate": discount,
                   "product_price": price.log(), "days_for_shipment_scheduled": scheduled}
num = torch.stack(list(numeric_columns.values()), 1)
cat = torch.stack([mode, market, category, segment, weekday, month], 1)
cardinalities = [4, 5, 20, 3, 7, 12]

perm = torch.randperm(N)
tr, te = perm[:9600], perm[9600:]
mu, sd = num[tr].mean(0), num[tr].std(0)
num = (num - mu) / sd


class OrderMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.embs = nn.ModuleList(nn.Embedding(c, 4) for c in cardinalities)
        self.mlp = nn.Sequential(nn.Linear(4 * len(cardinalities) + num.shape[1], 64), nn.ReLU(),
                                 nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, c, x):
        e = torch.cat([emb(c[:, i]) for i, emb in enumerate(self.embs)], 1)
        return self.mlp(torch.cat([e, x], 1)).squeeze(1)


loader = DataLoader(TensorDataset(cat[tr], num[tr], late[tr]), batch_size=128, shuffle=True)
model = OrderMLP()
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(15):
    total, count = 0.0, 0
    for c, x, y in loader:
        loss = criterion(model(c, x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} train bce {total / count:.4f}")

with torch.no_grad():
    acc = ((model(cat[te], num[te]) > 0).float() == late[te]).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
