"""Traced ResNet-18 that returns class probabilities and pooled features for a vector DB."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


class ResnetModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = torchvision.models.resnet18(weights="IMAGENET1K_V1")
        self.model.eval()

    def forward(self, x):
        m = self.model
        x = m.maxpool(m.relu(m.bn1(m.conv1(x))))
        x = m.layer4(m.layer3(m.layer2(m.layer1(x))))
        features = torch.flatten(m.avgpool(x), 1)
        logits = m.fc(features)
        probs = F.softmax(logits, dim=0)  # expect: softmax-over-batch-dim
        return probs, features


@torch.no_grad()
def top_predictions(module, images, k=5):
    module.eval()
    probs, features = module(images)
    top_p, top_idx = probs.topk(k, dim=1)
    results = []
    for row in range(images.size(0)):
        results.append([(int(top_idx[row, j]), float(top_p[row, j])) for j in range(k)])
    return results, features


if __name__ == "__main__":
    net = ResnetModule()
    example = torch.rand(1, 3, 224, 224)
    traced = torch.jit.trace(net, example)
    traced.save("resnet18_traced.pt")
