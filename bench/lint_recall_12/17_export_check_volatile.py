"""Compare eager outputs of a small superresolution net before and after an export round-trip."""
import torch
import torch.nn as nn
from torch.autograd import Variable


class SuperResolutionNet(nn.Module):
    def __init__(self, upscale_factor=3):
        super().__init__()
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 64, 5, padding=2)
        self.conv2 = nn.Conv2d(64, 32, 3, padding=1)
        self.conv3 = nn.Conv2d(32, upscale_factor ** 2, 3, padding=1)
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        return self.pixel_shuffle(self.conv3(x))


def reference_outputs(model, batch_size=4):
    model.eval()
    x = Variable(torch.randn(batch_size, 1, 224, 224), volatile=True)  # expect: volatile-variable
    out = model(x)
    return x, out


def check_roundtrip(model, run_exported, atol=1e-5):
    x, expected = reference_outputs(model)
    got = run_exported(x.numpy())
    diff = (torch.from_numpy(got) - expected).abs().max().item()
    assert diff < atol, f"mismatch {diff}"
    return diff
