# Source: https://github.com/AlexHex7/Non-local_pytorch/issues/9
# Pitfall: the MNIST demo still wraps test images in Variable(..., volatile=True); since PyTorch 0.4 the flag
#   is ignored, so the test loop records a full autograd graph and runs out of GPU memory.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.autograd import Variable


class NonLocalNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.theta = nn.Conv2d(32, 16, 1)
        self.phi = nn.Conv2d(32, 16, 1)
        self.g = nn.Conv2d(32, 16, 1)
        self.back = nn.Conv2d(16, 32, 1)
        self.fc = nn.Linear(32 * 14 * 14, 10)

    def forward(self, x):
        x = self.conv(x)
        b, c, h, w = x.shape
        q = self.theta(x).flatten(2).transpose(1, 2)
        k = self.phi(x).flatten(2)
        attn = torch.softmax(q @ k, dim=-1)
        v = self.g(x).flatten(2).transpose(1, 2)
        y = (attn @ v).transpose(1, 2).reshape(b, 16, h, w)
        x = x + self.back(y)
        return self.fc(x.flatten(1))


def test(net, test_loader, device):
    net.eval()
    correct, total = 0, 0
    for img, label in test_loader:
        img = Variable(img.to(device), volatile=True)  # expect: volatile-variable
        out = net(img)
        correct += (out.argmax(dim=1).cpu() == label).sum().item()
        total += label.size(0)
    net.train()
    return correct / max(total, 1)
