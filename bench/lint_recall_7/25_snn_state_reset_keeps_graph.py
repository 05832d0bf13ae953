# Source: https://github.com/synsense/sinabs/issues/5
# Pitfall: the stateful spiking layer resets its membrane buffer in place between batches; the
#   buffer still carries the previous batch's graph, so the next backward() walks into freed graph.
# Reproduced in our own words, not the original code.
import math

import torch
import torch.nn as nn


class SurrogateSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (v,) = ctx.saved_tensors
        return grad_out / (1.0 + 10.0 * v.abs()) ** 2


class StatefulLayer(nn.Module):
    def __init__(self, state_names):
        super().__init__()
        for name in state_names:
            self.register_buffer(name, torch.zeros(0))

    def is_state_initialised(self):
        return all(buf.numel() > 0 for buf in self.buffers())

    def init_state_with_shape(self, shape, device):
        for name, _ in list(self.named_buffers()):
            self.register_buffer(name, torch.zeros(shape, device=device))

    def reset_states(self):
        if self.is_state_initialised():
            for buffer in self.buffers():
                buffer.zero_()  # expect: hidden-state-not-detached


class LIFLayer(StatefulLayer):
    def __init__(self, tau_mem=20.0, threshold=1.0):
        super().__init__(["v_mem"])
        self.alpha = math.exp(-1.0 / tau_mem)
        self.threshold = threshold

    def forward(self, x):
        batch, steps, n = x.shape
        if not self.is_state_initialised() or self.v_mem.shape != (batch, n):
            self.init_state_with_shape((batch, n), x.device)
        v = self.v_mem
        spikes = []
        for t in range(steps):
            v = self.alpha * v + x[:, t]
            s = SurrogateSpike.apply(v - self.threshold)
            v = v - s * self.threshold
            spikes.append(s)
        self.v_mem = v
        return torch.stack(spikes, dim=1)


class SpikingNet(nn.Module):
    def __init__(self, n_in=128, n_hidden=256, n_out=10):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.lif1 = LIFLayer()
        self.fc2 = nn.Linear(n_hidden, n_out)
        self.lif2 = LIFLayer()

    def forward(self, x):
        return self.lif2(self.fc2(self.lif1(self.fc1(x))))

    def reset_states(self):
        for m in self.modules():
            if isinstance(m, StatefulLayer):
                m.reset_states()


if __name__ == "__main__":
    net = SpikingNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    for it in range(10):
        x = (torch.rand(32, 50, 128) < 0.1).float()
        y = torch.randint(0, 10, (32,))
        net.reset_states()
        optimizer.zero_grad()
        rates = net(x).sum(dim=1)
        loss = criterion(rates, y)
        loss.backward()
        optimizer.step()
        print(it, loss.item())
