"""Multi-GPU GraphSAGE node classification, one process per GPU (DDP)."""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
import dgl.nn as dglnn


class SAGE(nn.Module):
    def __init__(self, in_size, hidden_size, out_size):
        super().__init__()
        self.layers = nn.ModuleList([
            dglnn.SAGEConv(in_size, hidden_size, "mean"),
            dglnn.SAGEConv(hidden_size, hidden_size, "mean"),
            dglnn.SAGEConv(hidden_size, out_size, "mean"),
        ])
        self.dropout = nn.Dropout(0.5)

    def forward(self, blocks, x):
        h = x
        for i, (layer, block) in enumerate(zip(self.layers, blocks)):
            h = layer(block, h)
            if i != len(self.layers) - 1:
                h = self.dropout(F.relu(h))
        return h


def train_one_epoch(rank, model, loader, optimizer):
    model.train()
    total_loss = torch.tensor(0.0, device=rank)
    num_batches = 0
    for minibatch in loader:
        x = minibatch.node_features["feat"]
        y = minibatch.labels
        y_hat = model(minibatch.blocks, x)
        loss = F.cross_entropy(y_hat, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total_loss += loss  # expect: running-loss-keeps-graph
        num_batches += 1
    dist.reduce(total_loss, 0)
    return total_loss / max(num_batches, 1)


@torch.no_grad()
def evaluate(model, loader, num_classes):
    model.eval()
    correct = total = 0
    for minibatch in loader:
        pred = model(minibatch.blocks, minibatch.node_features["feat"]).argmax(1)
        correct += (pred == minibatch.labels).sum().item()
        total += minibatch.labels.numel()
    return correct / max(total, 1)


def run(rank, world_size, make_loaders, in_size, num_classes, epochs=10):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    model = DDP(SAGE(in_size, 256, num_classes).to(rank), device_ids=[rank])
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_loader, val_loader = make_loaders(rank, world_size)
    for epoch in range(epochs):
        loss = train_one_epoch(rank, model, train_loader, optimizer)
        acc = evaluate(model, val_loader, num_classes)
        if rank == 0:
            print(f"epoch {epoch}: loss {loss.item() / world_size:.4f} val acc {acc:.4f}")
    dist.destroy_process_group()
