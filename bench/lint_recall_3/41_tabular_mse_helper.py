# Source: https://github.com/LAMDA-Tabular/TALENT/pull/92
# Pitfall: The tabular benchmark's regression loss calls F.mse_loss with y_true shaped (n, 1) and
# y_pred shaped (n,), which broadcasts to (n, n) and trains toward the wrong objective.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def regression_loss(y_pred, y_true):
    return F.mse_loss(y_pred, y_true)  # expect: loss-shape-broadcast


def fit(model, train_set, epochs, lr=1e-3, device="cuda"):
    loader = DataLoader(train_set, batch_size=256, shuffle=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-5)
    model.to(device)
    for epoch in range(epochs):
        model.train()
        for x_num, y in loader:
            x_num = x_num.to(device)
            y = y.to(device).view(-1, 1)
            optimizer.zero_grad()
            out = model(x_num).squeeze(-1)
            loss = regression_loss(out, y)
            loss.backward()
            optimizer.step()
    return model
