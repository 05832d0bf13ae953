"""MoNet (GMM conv) classifier on MNIST superpixel graphs with DGL."""
import dgl
import torch
import torch.nn as nn
from dgl.nn.pytorch import GMMConv
from torch.utils.data import DataLoader


class MoNet(nn.Module):
    def __init__(self, in_feats, hiddens, out_feats, dim=2, n_kernels=3):
        super().__init__()
        self.layers = nn.ModuleList()
        self.pseudo_proj = nn.ModuleList()
        prev = in_feats
        for h in hiddens:
            self.layers.append(GMMConv(prev, h, dim, n_kernels))
            self.pseudo_proj.append(nn.Sequential(nn.Linear(2, dim), nn.Tanh()))
            prev = h
        self.readout = nn.Sequential(
            nn.Linear(hiddens[-1], out_feats), nn.LogSoftmax()  # expect: softmax-without-dim
        )

    def forward(self, g, feat, pseudo):
        h = feat
        for layer, proj in zip(self.layers, self.pseudo_proj):
            h = torch.relu(layer(g, h, proj(pseudo)))
        with g.local_scope():
            g.ndata["h"] = h
            hg = dgl.mean_nodes(g, "h")
        return self.readout(hg)


def collate(samples):
    graphs, labels = map(list, zip(*samples))
    return dgl.batch(graphs), torch.tensor(labels)


def run(train_set, test_set, epochs=30, device="cuda"):
    train_loader = DataLoader(train_set, batch_size=128, shuffle=True, collate_fn=collate)
    test_loader = DataLoader(test_set, batch_size=512, collate_fn=collate)
    model = MoNet(1, [32, 64, 64], 10).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.NLLLoss()
    for epoch in range(epochs):
        model.train()
        for g, y in train_loader:
            g, y = g.to(device), y.to(device)
            out = model(g, g.ndata["feat"], g.ndata["pos"])
            loss = loss_fn(out, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        correct = 0
        with torch.no_grad():
            for g, y in test_loader:
                g, y = g.to(device), y.to(device)
                correct += (model(g, g.ndata["feat"], g.ndata["pos"]).argmax(1) == y).sum().item()
        print(f"epoch {epoch}: test acc {correct / len(test_set):.4f}")
