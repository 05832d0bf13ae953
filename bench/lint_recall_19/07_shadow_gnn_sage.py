"""ShaDow-style subgraph GNN trained on node classification (PyG)."""
import torch
import torch.nn.functional as F
from torch_geometric.datasets import Flickr
from torch_geometric.loader import ShaDowKHopSampler
from torch_geometric.nn import SAGEConv, global_mean_pool

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
dataset = Flickr("data/Flickr")
data = dataset[0]

kwargs = {"batch_size": 1024, "num_workers": 6, "persistent_workers": True}
train_loader = ShaDowKHopSampler(data, depth=2, num_neighbors=5, node_idx=data.train_mask, shuffle=True, **kwargs)
val_loader = ShaDowKHopSampler(data, depth=2, num_neighbors=5, node_idx=data.val_mask, **kwargs)


class Net(torch.nn.Module):
    def __init__(self, in_channels, hidden, out_channels):
        super().__init__()
        self.conv1 = SAGEConv(in_channels, hidden)
        self.conv2 = SAGEConv(hidden, hidden)
        self.conv3 = SAGEConv(hidden, hidden)
        self.lin = torch.nn.Linear(2 * hidden, out_channels)

    def forward(self, x, edge_index, batch, root_n_id):
        x = self.conv1(x, edge_index).relu()
        x = F.dropout(x, p=0.3, training=self.training)
        x = self.conv2(x, edge_index).relu()
        x = F.dropout(x, p=0.3, training=self.training)
        x = self.conv3(x, edge_index).relu()
        x = F.dropout(x, p=0.3)  # expect: functional-dropout-always-on
        x = torch.cat([x[root_n_id], global_mean_pool(x, batch)], dim=-1)
        return self.lin(x)


model = Net(dataset.num_features, 256, dataset.num_classes).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)


def train():
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
    return total_loss / total_examples


@torch.no_grad()
def evaluate(loader):
    model.eval()
    correct = total = 0
    for batch in loader:
        batch = batch.to(device)
        out = model(batch.x, batch.edge_index, batch.batch, batch.root_n_id)
        correct += int((out.argmax(dim=-1) == batch.y).sum())
        total += batch.num_graphs
    return correct / total


for epoch in range(1, 51):
    loss = train()
    print(f"Epoch {epoch:02d} loss {loss:.4f} val {evaluate(val_loader):.4f}")
