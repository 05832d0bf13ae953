"""Transfer-learning notebook: the training loop never calls optimizer.zero_grad().

Source: https://github.com/udacity/deep-learning-v2-pytorch/pull/160
Report: the Transfer Learning notebook's loop is missing zero_grad, so the gradients of the new
classifier head accumulate from batch to batch; the PR adds optimizer.zero_grad().
Reproduced with a frozen random "feature extractor" (stands in for the pretrained network)
and a trainable head, trained with Adam as in the notebook.

expect: missing-zero-grad
symptom: final-loss-ratio 1.5
"""
import argparse

import torch
from torch import nn, optim

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
torch.manual_seed(args.seed)

# "pretrained" features: a frozen conv stack
features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten())
for param in features.parameters():
    param.requires_grad = False

images = torch.randn(1200, 3, 12, 12)
with torch.no_grad():
    feats = features(images)
labels = (feats @ torch.randn(feats.shape[1], 2)).argmax(1)

model = nn.Sequential(features, nn.Linear(256, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 2), nn.LogSoftmax(dim=1))
criterion = nn.NLLLoss()
optimizer = optim.Adam([p for p in model.parameters() if p.requires_grad], lr=0.003)

steps, running = 0, []
for epoch in range(3):
    for i in range(0, 1200, 32):
        inputs, targets = images[i:i + 32], labels[i:i + 32]
        logps = model(inputs)
        loss = criterion(logps, targets)
        loss.backward()
        optimizer.step()
        running.append(loss.item())
        steps += 1

model.eval()
with torch.no_grad():
    accuracy = (model(images).argmax(1) == labels).float().mean().item()
print(f"final_loss={sum(running[-20:]) / 20:.6g} acc={accuracy:.4f}")
