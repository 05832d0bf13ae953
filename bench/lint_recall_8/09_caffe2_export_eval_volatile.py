# Source: https://github.com/onnxbot/onnx-fb-universe/pull/222
# Pitfall: evaluation inputs are wrapped as Variable(..., volatile=True) to skip autograd; since
# PyTorch 0.4 the flag does nothing, so the graph is still recorded and memory use grows.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.autograd import Variable


class SmallConvNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 5), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.fc = nn.Linear(32 * 4 * 4, n_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def reference_outputs(model, batches):
    """Run the PyTorch model once to get reference outputs for the exported graph."""
    model.eval()
    outputs = []
    for batch in batches:
        inp = Variable(batch, volatile=True)  # expect: volatile-variable
        outputs.append(model(inp).data.clone())
    return outputs


def max_abs_diff(reference, candidate):
    return max((r - c).abs().max().item() for r, c in zip(reference, candidate))


if __name__ == "__main__":
    torch.manual_seed(0)
    net = SmallConvNet()
    data = [torch.randn(8, 1, 28, 28) for _ in range(3)]
    ref = reference_outputs(net, data)
    again = reference_outputs(net, data)
    print("self-consistency:", max_abs_diff(ref, again))
