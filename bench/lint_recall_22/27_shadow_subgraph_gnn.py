"""Node classification on subgraphs sampled around each target node (ShaDow-style)."""
import torch
import torch.nn.functional as F
from torch_geometric.loader import ShaDowKHopSampler
from torch_geometric.nn import SAGEConv, global_mean_pool


class SubgraphGNN(torch.nn.Module):
    def __init__(self, in_channels, hidden_channels, out_channels, p=0.3):
        super().__init__()
        self.p = p
        self.conv1 = SAGEConv(in_channels, hidden_channels)
        self.conv2 = SAGEConv(hidden_channels, hidden_channels)
        self.conv3 = SAGEConv(hidden_channels, hidden_channels)
        self.lin = torch.nn.Linear(2 * hidden_channels, out_channels)

    def forward(self, x, edge_index, batch, root_n_id):
        x = self.conv1(x, edge_index).relu()
        x = F.dropout(x, p=self.p)  # expect: functional-dropout-always-on
        x = self.conv2(x, edge_index).relu()
        x = F.dropout(x, p=self.p, training=self.training)
        x = self.conv3(x, edge_index).relu()
        x = F.dropout(x, p=self.p, training=self.training)
        x = torch.cat([x[root_n_id], global_mean_pool(x, batch)], dim=-1)
        return self.lin(x)


def run(data, num_classes, epochs=50, device="cuda"):
    kwargs = {"batch_size": 1024, "num_workers": 6, "persistent_workers": True}
    train_loader = ShaDowKHopSampler(data, depth=2, num_neighbors=5, node_idx=data.train_mask,
                                     shuffle=True, **kwargs)
    val_loader = ShaDowKHopSampler(data, depth=2, num_neighbors=5, node_idx=data.val_mask, **kwargs)
    model = SubgraphGNN(data.num_features, 256, num_classes).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)

    for epoch in range(1, epochs + 1):
        model.train()
        total_loss = total_examples = 0
        for batch in train_loader:
            batch = batch.to(device)
            optimizer.zero_grad()
            out = model(batch.x, batch.edge_index, batch.batch, batch.root_n_id)
            loss = F.cross_entropy(out, batch.y)
            loss.backward()
            optimizer.step()
            total_loss += float(loss) * batch.num_graphs
            total_examples += batch.num_graphs

        model.eval()
        correct = seen = 0
        with torch.no_grad():
            for batch in val_loader:
                batch = batch.to(device)
                out = model(batch.x, batch.edge_index, batch.batch, batch.root_n_id)
                correct += int((out.argmax(dim=-1) == batch.y).sum())
                seen += batch.num_graphs
        print(f"epoch {epoch:02d} loss {total_loss / max(total_examples, 1):.4f} "
              f"val acc {correct / max(seen, 1):.4f}")
