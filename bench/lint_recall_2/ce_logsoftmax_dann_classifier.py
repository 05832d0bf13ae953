# Source: https://github.com/NaJaeMin92/pytorch-DANN/issues/7
# Pitfall: The label classifier and the domain discriminator end with nn.LogSoftmax inside nn.Sequential, and their outputs go to nn.CrossEntropyLoss, which already applies log_softmax; the redundant layer makes the models hard to train.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class LabelHead(nn.Module):
    def __init__(self, in_dim=768, n_classes=10):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(in_dim, 256),
            nn.BatchNorm1d(256),
            nn.ReLU(),
            nn.Linear(256, n_classes),
            nn.LogSoftmax(dim=1),
        )

    def forward(self, feats):
        return self.layers(feats)


def source_step(extractor, head, images, labels, optimizer):
    class_criterion = nn.CrossEntropyLoss()
    extractor.train()
    head.train()
    optimizer.zero_grad()
    feats = extractor(images)
    class_out = head(feats)
    class_loss = class_criterion(class_out, labels)  # expect: softmax-before-cross-entropy
    class_loss.backward()
    optimizer.step()
    return class_loss.item()
