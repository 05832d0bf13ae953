# Source: https://github.com/microsoft/SpareNet/issues/12
# Pitfall: The runner pushes the differentiable loss tensors into an averaging meter for logging; the
# meter sums them, keeping every batch's graph alive until CUDA runs out of memory after ~2 epochs.
# Reproduced in our own words, not the original code.
import torch


class RunningAverage:
    def __init__(self, n):
        self.sums = [0.0] * n
        self.count = 0

    def update(self, values):
        for i, v in enumerate(values):
            self.sums[i] = self.sums[i] + v
        self.count += 1

    def avg(self, i):
        return self.sums[i] / max(self.count, 1)


def train_completion(net, loader, optimizer, chamfer, device):
    meter = RunningAverage(3)
    net.train()
    for partial, complete in loader:
        partial, complete = partial.to(device), complete.to(device)
        optimizer.zero_grad()
        coarse, refined = net(partial)
        coarse_loss = chamfer(coarse, complete)
        fine_loss = chamfer(refined, complete)
        total = coarse_loss + fine_loss
        total.backward()
        optimizer.step()
        meter.update([coarse_loss, fine_loss, total])  # expect: running-loss-keeps-graph
    return meter.avg(2)
