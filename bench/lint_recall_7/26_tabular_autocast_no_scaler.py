# Source: https://github.com/NVIDIA-Merlin/NVTabular/pull/815
# Pitfall: with amp=True the epoch helper runs the forward pass under float16 autocast but calls
#   backward() on the raw loss without a GradScaler, so small gradients underflow and NaNs appear.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class EmbMLP(nn.Module):
    def __init__(self, cardinalities, n_cont, emb_dim=16, hidden=(512, 256)):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(c, emb_dim) for c in cardinalities])
        self.bn_cont = nn.BatchNorm1d(n_cont)
        layers, d = [], emb_dim * len(cardinalities) + n_cont
        for h in hidden:
            layers += [nn.Linear(d, h), nn.ReLU(), nn.Dropout(0.1)]
            d = h
        self.mlp = nn.Sequential(*layers, nn.Linear(d, 1))

    def forward(self, x_cat, x_cont):
        emb = torch.cat([e(x_cat[:, i]) for i, e in enumerate(self.embs)], dim=1)
        return self.mlp(torch.cat([emb, self.bn_cont(x_cont)], dim=1)).squeeze(-1)


def process_epoch(batches, model, train=False, optimizer=None, loss_func=nn.BCEWithLogitsLoss(), amp=False):
    model.train(mode=train)
    total, n = 0.0, 0
    with torch.set_grad_enabled(train):
        for x_cat, x_cont, y in batches:
            with torch.cuda.amp.autocast(enabled=amp):
                y_pred = model(x_cat, x_cont)
                loss = loss_func(y_pred, y)
            if train:
                optimizer.zero_grad()
                loss.backward()  # expect: unscaled-fp16
                optimizer.step()
            total += loss.item()
            n += 1
    return total / max(n, 1)


if __name__ == "__main__":
    device = torch.device("cuda")
    cards = [1000, 500, 50]
    model = EmbMLP(cards, n_cont=5).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_batches = [(torch.stack([torch.randint(0, c, (1024,)) for c in cards], 1).to(device),
                      torch.randn(1024, 5, device=device),
                      torch.randint(0, 2, (1024,), device=device).float()) for _ in range(20)]
    valid_batches = train_batches[:4]
    for epoch in range(3):
        tr = process_epoch(train_batches, model, train=True, optimizer=opt, amp=True)
        va = process_epoch(valid_batches, model, train=False, amp=True)
        print(epoch, tr, va)
