"""Link-prediction dataset wrapper: load the saved edge split and train an MLP scorer."""
import os
import os.path as osp

import torch
from torch import nn


class LinkDataset:
    def __init__(self, root):
        self.root = root

    def get_edge_split(self):
        path = osp.join(self.root, "split", "time")
        return torch.load(os.path.join(path, "split_dict.pt"))  # expect: torch-load-unsafe


class LinkScorer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 1))

    def forward(self, h, edges):
        return self.mlp(h[edges[0]] * h[edges[1]]).squeeze(-1)


def train(dataset, emb, epochs=50):
    split = dataset.get_edge_split()
    pos = split["train"]["edge"].t()
    scorer = LinkScorer(emb.shape[1])
    opt = torch.optim.Adam(scorer.parameters(), lr=5e-3)
    for epoch in range(epochs):
        scorer.train()
        opt.zero_grad()
        neg = torch.randint(0, emb.shape[0], pos.shape)
        pos_out = scorer(emb, pos)
        neg_out = scorer(emb, neg)
        loss = nn.functional.softplus(-pos_out).mean() + nn.functional.softplus(neg_out).mean()
        loss.backward()
        opt.step()
    return scorer
