# Source: https://github.com/intel/intel-extension-for-pytorch/pull/267
# Pitfall: the sample moves the input batch with data.to(device) as a bare statement; .to() returns a copy,
#   so the batch stays on the CPU and the step fails or silently runs on the wrong device.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torchvision

DEVICE = "xpu" if hasattr(torch, "xpu") and torch.xpu.is_available() else "cpu"


def build():
    net = torchvision.models.resnet18(num_classes=10)
    net = net.to(DEVICE)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    return net, opt


def train_one(net, opt, data, target):
    net.train()
    data.to(DEVICE)  # expect: tensor-op-result-discarded
    target = target.to(DEVICE)
    opt.zero_grad()
    out = net(data)
    loss = nn.functional.cross_entropy(out, target)
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    model, optimizer = build()
    batch = torch.randn(4, 3, 64, 64)
    labels = torch.randint(0, 10, (4,))
    print(train_one(model, optimizer, batch, labels))
