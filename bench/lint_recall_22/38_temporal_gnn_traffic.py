"""Node-level traffic forecasting with a recurrent graph convolution over temporal snapshots."""
import torch
import torch.nn.functional as F
from torch_geometric_temporal.nn.recurrent import DCRNN
from torch_geometric_temporal.signal import temporal_signal_split
from tqdm import tqdm


class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features, hidden=32):
        super().__init__()
        self.recurrent = DCRNN(node_features, hidden, 1)
        self.linear = torch.nn.Linear(hidden, 1)

    def forward(self, x, edge_index, edge_weight):
        h = self.recurrent(x, edge_index, edge_weight)
        return self.linear(F.relu(h))


def fit(dataset, epochs=50, lr=0.01):
    train_dataset, test_dataset = temporal_signal_split(dataset, train_ratio=0.8)
    model = RecurrentGCN(node_features=dataset[0].x.size(1))
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    model.train()
    for _ in tqdm(range(epochs)):
        for snapshot in train_dataset:
            y_hat = model(snapshot.x, snapshot.edge_index, snapshot.edge_attr)
            cost = torch.mean((y_hat - snapshot.y) ** 2)  # expect: loss-shape-broadcast
            cost.backward()
            optimizer.step()
            optimizer.zero_grad()

    model.eval()
    total, steps = 0.0, 0
    with torch.no_grad():
        for snapshot in test_dataset:
            y_hat = model(snapshot.x, snapshot.edge_index, snapshot.edge_attr).squeeze(-1)
            total += torch.mean((y_hat - snapshot.y) ** 2).item()
            steps += 1
    print(f"MSE: {total / max(steps, 1):.4f}")
    return model
