"""Segmentation model with an auxiliary classification head built from a config string."""
import torch
import torch.nn as nn


class Activation(nn.Module):
    def __init__(self, name):
        super().__init__()
        if name is None or name == "identity":
            self.activation = nn.Identity()
        elif name == "sigmoid":
            self.activation = nn.Sigmoid()
        elif name == "softmax":
            self.activation = nn.Softmax()  # expect: softmax-without-dim
        elif name == "tanh":
            self.activation = nn.Tanh()
        else:
            raise ValueError(f"unknown activation {name}")

    def forward(self, x):
        return self.activation(x)


class ClassificationHead(nn.Sequential):
    def __init__(self, in_channels, classes, dropout=0.2, activation=None):
        pool = nn.AdaptiveAvgPool2d(1)
        flatten = nn.Flatten()
        drop = nn.Dropout(p=dropout, inplace=True)
        linear = nn.Linear(in_channels, classes)
        super().__init__(pool, flatten, drop, linear, Activation(activation))


class SegWithAux(nn.Module):
    def __init__(self, encoder, decoder, seg_head, aux_classes=4):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.segmentation_head = seg_head
        self.classification_head = ClassificationHead(encoder.out_channels[-1], aux_classes,
                                                      activation="softmax")

    def forward(self, x):
        features = self.encoder(x)
        masks = self.segmentation_head(self.decoder(*features))
        labels = self.classification_head(features[-1])
        return masks, labels

