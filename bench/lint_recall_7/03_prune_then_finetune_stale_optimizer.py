# Source: https://github.com/microsoft/nni/issues/4521
# Pitfall: after pruning, the feature extractor is swapped for a physically smaller copy, but
#   fine-tuning keeps the optimizer built from the old modules, so the new weights never update.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_features(widths):
    layers, c_in = [], 3
    for c_out in widths:
        layers += [nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(), nn.MaxPool2d(2)]
        c_in = c_out
    return nn.Sequential(*layers)


class Net(nn.Module):
    def __init__(self, widths=(32, 64)):
        super().__init__()
        self.features = make_features(widths)
        self.head = nn.Linear(widths[-1], 10)

    def forward(self, x):
        x = self.features(x)
        return self.head(F.adaptive_avg_pool2d(x, 1).flatten(1))


def compact_features(features, keep_first):
    """Rebuild the extractor with only the kept output channels of the first conv."""
    old_conv1, old_bn1, old_conv2 = features[0], features[1], features[4]
    new = make_features((len(keep_first), old_conv2.out_channels))
    with torch.no_grad():
        new[0].weight.copy_(old_conv1.weight[keep_first])
        new[0].bias.copy_(old_conv1.bias[keep_first])
        new[1].weight.copy_(old_bn1.weight[keep_first])
        new[1].bias.copy_(old_bn1.bias[keep_first])
        new[4].weight.copy_(old_conv2.weight[:, keep_first])
        new[4].bias.copy_(old_conv2.bias)
    return new


def run_epoch(model, loader, optimizer, device):
    model.train()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    data = TensorDataset(torch.randn(512, 3, 32, 32), torch.randint(0, 10, (512,)))
    loader = DataLoader(data, batch_size=64, shuffle=True)

    model = Net().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for _ in range(3):
        run_epoch(model, loader, optimizer, device)

    # L1-norm channel selection on the first conv, then physically remove the weak channels
    norms = model.features[0].weight.detach().abs().sum(dim=(1, 2, 3))
    keep = norms.argsort(descending=True)[: norms.numel() // 2].sort().values
    model.features = compact_features(model.features, keep).to(device)  # expect: optimizer-misses-params

    for _ in range(2):
        run_epoch(model, loader, optimizer, device)
    torch.save(model.state_dict(), "pruned.pt")


if __name__ == "__main__":
    main()
