# Source: https://github.com/yandex-research/tabm/issues/20
# Pitfall: the example train step clips gradient norms right after zero_grad and before backward(),
#   i.e. between the previous step and the next backward, so the clip never touches the gradients used.
# Reproduced in our own words, not the original code.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class EnsembleMLP(nn.Module):
    def __init__(self, d_in, d_out, k=8, width=256):
        super().__init__()
        self.k = k
        self.backbone = nn.Sequential(nn.Linear(d_in, width), nn.ReLU(), nn.Dropout(0.1),
                                      nn.Linear(width, width), nn.ReLU(), nn.Dropout(0.1))
        self.heads = nn.Linear(width, d_out * k)

    def forward(self, x):
        out = self.heads(self.backbone(x))
        return out.view(x.size(0), self.k, -1)


def main(gradient_clipping_norm=1.0, n_epochs=5, batch_size=256):
    torch.manual_seed(0)
    X = torch.randn(4096, 24)
    Y = (X[:, :3].sum(1) > 0).long()
    model = EnsembleMLP(24, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=3e-4)

    def loss_fn(y_pred, y_true):
        k = y_pred.shape[1]
        return F.cross_entropy(y_pred.flatten(0, 1), y_true.repeat_interleave(k))

    steps_per_epoch = math.ceil(len(X) / batch_size)
    for epoch in range(n_epochs):
        model.train()
        for idx in torch.randperm(len(X)).split(batch_size):
            optimizer.zero_grad()
            loss = loss_fn(model(X[idx]), Y[idx])
            if gradient_clipping_norm is not None:
                nn.utils.clip_grad_norm_(model.parameters(), gradient_clipping_norm)  # expect: clip-after-step
            loss.backward()
            optimizer.step()

        model.eval()
        with torch.no_grad():
            probs = model(X).softmax(dim=-1).mean(dim=1)
            acc = (probs.argmax(dim=1) == Y).float().mean().item()
        print(f"epoch {epoch} ({steps_per_epoch} steps): train acc {acc:.3f}")


if __name__ == "__main__":
    main()
