# Source: https://github.com/jsboige/CoursIA/pull/926
# Pitfall: With a one-step horizon the model predicts shape (B, 1) while the loader yields targets of shape (B,); nn.MSELoss broadcasts them to (B, B) and averages pairwise differences, both in training and in validation.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class SeriesRegressor(nn.Module):
    def __init__(self, n_features, pred_len=1, hidden=64):
        super().__init__()
        self.rnn = nn.GRU(n_features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, pred_len)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.head(out[:, -1])


def run(model, train_loader, val_loader, epochs=20, lr=1e-3):
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        for x_batch, y_batch in train_loader:
            optimizer.zero_grad()
            pred = model(x_batch)
            loss = criterion(pred, y_batch)  # expect: loss-shape-broadcast
            loss.backward()
            optimizer.step()
        model.eval()
        val_total = 0.0
        with torch.no_grad():
            for x_batch, y_batch in val_loader:
                pred = model(x_batch)
                val_total += criterion(pred, y_batch).item()  # expect: loss-shape-broadcast
        model.train()
        print(f"epoch {epoch} val mse {val_total / len(val_loader):.5f}")
