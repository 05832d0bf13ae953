# Source: https://github.com/lnccbrown/LANfactory/pull/103
# Pitfall: the MLP's "logits" output mode returns -torch.log(1 + torch.exp(-x)) written by hand; exp
# overflows for very negative x, giving inf/NaN where F.logsigmoid (a stable softplus) would not.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LikelihoodMLP(nn.Module):
    def __init__(self, input_dim=6, widths=(100, 100, 120), train_output_type="logprob"):
        super().__init__()
        dims = [input_dim, *widths]
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:])])
        self.layers.append(nn.Linear(dims[-1], 1))
        self.train_output_type = train_output_type

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = torch.tanh(layer(x))
        if self.train_output_type == "logprob":
            return self.layers[-1](x)
        elif self.train_output_type == "logits":
            return -torch.log(1 + torch.exp(-self.layers[-1](x)))  # expect: unshifted-logsumexp
        raise ValueError(self.train_output_type)


def train(model, features, targets, epochs=5, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        opt.zero_grad()
        pred = model(features)
        loss = F.huber_loss(pred, targets)
        loss.backward()
        opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    feats = torch.randn(512, 6)
    tgt = -torch.rand(512, 1) * 5
    train(LikelihoodMLP(train_output_type="logits"), feats, tgt)
