"""Multi-GPU GraphSAGE node classification (one process per GPU)."""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class SAGE(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = nn.ModuleList(layers)
        self.dropout = nn.Dropout(0.5)

    def forward(self, blocks, x):
        h = x
        for i, (layer, block) in enumerate(zip(self.layers, blocks)):
            h = layer(block, h)
            if i != len(self.layers) - 1:
                h = self.dropout(F.relu(h))
        return h


def train(rank, world_size, model, train_loader, epochs=10, lr=0.003):
    device = torch.device(f"cuda:{rank}")
    model = DDP(model.to(device), device_ids=[rank])
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        total_loss = torch.tensor(0, dtype=torch.float, device=device)
        num_batches = 0
        for data in train_loader:
            x = data.node_features["feat"]
            y = data.labels
            y_hat = model(data.blocks, x)
            loss = F.cross_entropy(y_hat, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss  # expect: running-loss-keeps-graph
            num_batches += 1
        dist.reduce(tensor=total_loss, dst=0)
        if rank == 0:
            print(f"epoch {epoch} loss {total_loss.item() / (num_batches * world_size):.4f}")
