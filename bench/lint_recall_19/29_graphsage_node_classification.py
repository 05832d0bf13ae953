"""GraphSAGE node classification on ogbn-products with neighbour-sampled mini-batches."""
import argparse

import dgl
import dgl.nn as dglnn
import torch
import torch.nn as nn
import torch.nn.functional as F
from ogb.nodeproppred import DglNodePropPredDataset


class SAGE(nn.Module):
    def __init__(self, in_size, hid_size, out_size):
        super().__init__()
        self.layers = nn.ModuleList([
            dglnn.SAGEConv(in_size, hid_size, "mean"),
            dglnn.SAGEConv(hid_size, hid_size, "mean"),
            dglnn.SAGEConv(hid_size, out_size, "mean"),
        ])
        self.dropout = nn.Dropout(0.5)

    def forward(self, blocks, x):
        h = x
        for l, (layer, block) in enumerate(zip(self.layers, blocks)):
            h = layer(block, h)
            if l != len(self.layers) - 1:
                h = self.dropout(F.relu(h))
        return h


def evaluate(model, dataloader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for input_nodes, output_nodes, blocks in dataloader:
            y_hat = model(blocks, blocks[0].srcdata["feat"]).argmax(1)
            y = blocks[-1].dstdata["label"]
            correct += (y_hat == y).sum().item()
            total += y.numel()
    return correct / max(total, 1)


def train(device, g, dataset, model, epochs=10):
    train_idx = dataset.train_idx.to(device)
    val_idx = dataset.val_idx.to(device)
    sampler = dgl.dataloading.NeighborSampler([10, 10, 10], prefetch_node_feats=["feat"], prefetch_labels=["label"])
    train_dataloader = dgl.dataloading.DataLoader(g, train_idx, sampler, device=device, batch_size=1024,
                                                  shuffle=True, drop_last=False, num_workers=0, use_uva=True)
    val_dataloader = dgl.dataloading.DataLoader(g, val_idx, sampler, device=device, batch_size=1024,
                                                shuffle=False, num_workers=0, use_uva=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=5e-4)
    for epoch in range(epochs):
        model.train()
        total_loss = torch.tensor(0.0).to(device)
        for it, (input_nodes, output_nodes, blocks) in enumerate(train_dataloader):
            x = blocks[0].srcdata["feat"]
            y = blocks[-1].dstdata["label"]
            y_hat = model(blocks, x)
            loss = F.cross_entropy(y_hat, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total_loss += loss  # expect: running-loss-keeps-graph
        acc = evaluate(model, val_dataloader)
        mem = torch.cuda.max_memory_allocated() / 1e6
        print(f"Epoch {epoch:05d} | Loss {total_loss.item() / (it + 1):.4f} | Acc {acc:.4f} | Mem {mem:.1f}MB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    args = parser.parse_args()
    device = torch.device("cuda")
    data = DglNodePropPredDataset("ogbn-products")
    g, labels = data[0]
    g.ndata["label"] = labels.squeeze()
    split = data.get_idx_split()
    data.train_idx, data.val_idx = split["train"], split["valid"]
    model = SAGE(g.ndata["feat"].shape[1], 256, data.num_classes).to(device)
    train(device, g, data, model, args.epochs)
