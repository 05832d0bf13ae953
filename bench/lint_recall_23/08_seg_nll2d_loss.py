"""Segmentation criteria: plain and image-weighted 2-D NLL over log-probabilities."""
import logging

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossEntropyLoss2d(nn.Module):
    def __init__(self, weight=None, ignore_index=255):
        super().__init__()
        logging.info("Using Cross Entropy Loss")
        self.nll_loss = nn.NLLLoss(weight=weight, ignore_index=ignore_index)

    def forward(self, inputs, targets):
        return self.nll_loss(F.log_softmax(inputs), targets)  # expect: softmax-without-dim


class ImageWeightedNLL(nn.Module):
    def __init__(self, classes, ignore_index=255, upper_bound=1.0):
        super().__init__()
        self.num_classes = classes
        self.ignore_index = ignore_index
        self.upper_bound = upper_bound

    def class_weights(self, target):
        hist = np.histogram(target.flatten(), range(self.num_classes + 1), density=True)[0]
        return ((hist != 0) * self.upper_bound * (1 - hist)) + 1

    def forward(self, inputs, targets):
        loss = 0.0
        target_cpu = targets.cpu().numpy()
        for i in range(inputs.shape[0]):
            weights = torch.tensor(self.class_weights(target_cpu[i]), dtype=inputs.dtype, device=inputs.device)
            loss = loss + F.nll_loss(F.log_softmax(inputs[i:i + 1], dim=1), targets[i:i + 1],
                                     weight=weights, ignore_index=self.ignore_index)
        return loss


def train_step(net, criterion, optimizer, images, masks):
    net.train()
    optimizer.zero_grad()
    loss = criterion(net(images), masks)
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 19, 1))
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    crit = CrossEntropyLoss2d()
    for _ in range(3):
        imgs = torch.randn(2, 3, 64, 64)
        masks = torch.randint(0, 19, (2, 64, 64))
        print(train_step(net, crit, opt, imgs, masks))
