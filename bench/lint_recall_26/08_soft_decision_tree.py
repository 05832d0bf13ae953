"""Soft decision tree distilled from an RL policy, with the balancing penalty of Frosst & Hinton."""
import torch
import torch.nn as nn


class SoftDecisionTree(nn.Module):
    def __init__(self, input_dim, output_dim, depth=3, lamda=1e-3):
        super().__init__()
        self.depth = depth
        self.n_inner = 2 ** depth - 1
        self.n_leaf = 2 ** depth
        self.inner = nn.Linear(input_dim + 1, self.n_inner, bias=False)
        self.leaf = nn.Parameter(torch.randn(self.n_leaf, output_dim))
        self.penalty_list = [lamda * (2 ** (-d)) for d in range(depth)]

    def _mu(self, x):
        batch_size = x.size(0)
        x = torch.cat([torch.ones(batch_size, 1, device=x.device), x], dim=1)
        path_prob = torch.sigmoid(self.inner(x)).unsqueeze(2)
        path_prob = torch.cat([path_prob, 1 - path_prob], dim=2)
        mu = torch.ones(batch_size, 1, 1, device=x.device)
        penalty = torch.zeros((), device=x.device)
        begin, end = 0, 1
        for layer_idx in range(self.depth):
            _path_prob = path_prob[:, begin:end, :]
            penalty = penalty + self._penalty(layer_idx, mu, _path_prob)
            mu = mu.view(batch_size, -1, 1).repeat(1, 1, 2)
            mu = mu * _path_prob
            begin, end = end, end + 2 ** (layer_idx + 1)
        return mu.view(batch_size, self.n_leaf), penalty

    def _penalty(self, layer_idx, _mu, _path_prob):
        penalty = torch.zeros((), device=_mu.device)
        batch_size = _mu.size(0)
        _mu = _mu.view(batch_size, 2 ** layer_idx)
        _path_prob = _path_prob.reshape(batch_size, 2 ** (layer_idx + 1))
        for node in range(0, 2 ** (layer_idx + 1)):
            alpha = torch.sum(_path_prob[:, node] * _mu[:, node // 2], dim=0) / torch.sum(_mu[:, node // 2], dim=0)  # expect: unguarded-zero
            alpha = torch.clamp(alpha, 1e-7, 1 - 1e-7)
            penalty = penalty - self.penalty_list[layer_idx] * 0.5 * (torch.log(alpha) + torch.log(1 - alpha))
        return penalty

    def forward(self, x):
        mu, penalty = self._mu(x)
        return mu @ self.leaf, penalty


def distill(tree, states, teacher_actions, epochs=40, lr=1e-3, batch_size=256):
    optimizer = torch.optim.Adam(tree.parameters(), lr=lr)
    criterion = nn.CrossEntropyLoss()
    dataset = torch.utils.data.TensorDataset(states, teacher_actions)
    loader = torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=True)
    tree.train()
    for epoch in range(epochs):
        for s, a in loader:
            logits, penalty = tree(s)
            loss = criterion(logits, a) + penalty
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return tree
