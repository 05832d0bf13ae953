"""1D CNN predicting per-residue secondary structure (3 classes) from one-hot sequences."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SSConvNet(nn.Module):
    def __init__(self, n_aa=21, channels=64, n_classes=3):
        super().__init__()
        self.conv1 = nn.Conv1d(n_aa, channels, 9, padding=4)
        self.conv2 = nn.Conv1d(channels, channels, 9, padding=4)
        self.out = nn.Conv1d(channels, n_classes, 1)

    def forward(self, x):
        h = F.relu(self.conv1(x))
        h = F.relu(self.conv2(h))
        logits = self.out(h)
        output = F.softmax(logits, dim=1)
        return output


def train(model, loader, epochs=20, lr=1e-3, device="cpu"):
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss(ignore_index=-1)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for seqs, labels in loader:
            seqs, labels = seqs.to(device), labels.to(device)
            probs = model(seqs)
            loss = loss_fn(probs, labels)  # expect: softmax-before-cross-entropy
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(epoch, total / len(loader))
