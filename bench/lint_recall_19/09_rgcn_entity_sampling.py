"""RGCN entity classification on a heterogeneous knowledge graph with
neighbour sampling, sampling done on the GPU."""
import dgl
import torch
import torch.nn as nn
import torch.nn.functional as F
from dgl.nn.pytorch import RelGraphConv


class EntityClassify(nn.Module):
    def __init__(self, num_nodes, h_dim, out_dim, num_rels, num_bases=-1):
        super().__init__()
        self.emb = nn.Embedding(num_nodes, h_dim)
        self.layers = nn.ModuleList([
            RelGraphConv(h_dim, h_dim, num_rels, "basis", num_bases, activation=F.relu, self_loop=True),
            RelGraphConv(h_dim, out_dim, num_rels, "basis", num_bases, self_loop=True),
        ])

    def forward(self, blocks):
        h = self.emb(blocks[0].srcdata[dgl.NID])
        for layer, block in zip(self.layers, blocks):
            h = layer(block, h, block.edata[dgl.ETYPE], block.edata["norm"])
        return h


def run(g, labels, train_idx, val_idx, num_classes, num_rels, epochs=50):
    device = torch.device("cuda")
    g = g.to(device)
    labels = labels.to(device)
    train_idx = train_idx.to(device)
    val_idx.to(device)  # expect: tensor-op-result-discarded

    sampler = dgl.dataloading.MultiLayerNeighborSampler([4, 4])
    train_loader = dgl.dataloading.DataLoader(g, train_idx, sampler, device=device,
                                              batch_size=100, shuffle=True)
    val_loader = dgl.dataloading.DataLoader(g, val_idx, sampler, device=device,
                                            batch_size=100, shuffle=False)

    model = EntityClassify(g.num_nodes(), 16, num_classes, num_rels).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)

    for epoch in range(epochs):
        model.train()
        for input_nodes, output_nodes, blocks in train_loader:
            logits = model(blocks)
            loss = F.cross_entropy(logits, labels[output_nodes])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        correct = total = 0
        with torch.no_grad():
            for input_nodes, output_nodes, blocks in val_loader:
                pred = model(blocks).argmax(dim=1)
                correct += (pred == labels[output_nodes]).sum().item()
                total += len(output_nodes)
        print(f"epoch {epoch}: val acc {correct / max(total, 1):.4f}")
