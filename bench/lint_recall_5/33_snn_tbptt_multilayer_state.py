# Source: https://github.com/NeuroTorch/NeuroTorch/pull/137
# Pitfall: truncated BPTT over a multi-layer recurrent network carries every layer's hidden state into the
#          next chunk without detaching it, so the second backward() runs into the already-freed graph.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class LeakyRecurrentLayer(nn.Module):
    def __init__(self, d_in, d_h, decay=0.9):
        super().__init__()
        self.inp = nn.Linear(d_in, d_h)
        self.rec = nn.Linear(d_h, d_h, bias=False)
        self.decay = decay

    def forward(self, x_t, h):
        return self.decay * h + (1 - self.decay) * torch.tanh(self.inp(x_t) + self.rec(h))


class StackedLeaky(nn.Module):
    def __init__(self, d_in=16, d_h=64, n_layers=3, d_out=4):
        super().__init__()
        dims = [d_in] + [d_h] * n_layers
        self.layers = nn.ModuleList([LeakyRecurrentLayer(dims[i], dims[i + 1]) for i in range(n_layers)])
        self.readout = nn.Linear(d_h, d_out)
        self.d_h = d_h

    def init_states(self, batch):
        return [torch.zeros(batch, self.d_h) for _ in self.layers]

    def forward(self, x_t, states):
        new_states = []
        h_in = x_t
        for layer, h in zip(self.layers, states):
            h_in = layer(h_in, h)
            new_states.append(h_in)
        return self.readout(h_in), new_states


def train_tbptt(model, seq, targets, chunk=25, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    states = model.init_states(seq.shape[1])
    for start in range(0, seq.shape[0], chunk):
        opt.zero_grad()
        loss = 0.0
        for t in range(start, min(start + chunk, seq.shape[0])):
            out, states = model(seq[t], states)  # expect: hidden-state-not-detached
            loss = loss + nn.functional.mse_loss(out, targets[t])
        loss.backward()
        opt.step()
        print(start, loss.item())


if __name__ == "__main__":
    net = StackedLeaky()
    train_tbptt(net, torch.randn(100, 8, 16), torch.randn(100, 8, 4))
