# Source: https://github.com/doronharitan/human_activity_recognition_LRCN/issues/4
# Pitfall: the CNN+LSTM activity model passes its class scores through nn.Softmax before the
# CrossEntropyLoss; the double softmax flattens the gradients and the model converges slower.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ClipRecognizer(nn.Module):
    def __init__(self, feat_dim=128, hidden=64, n_actions=11):
        super().__init__()
        self.frame_encoder = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                           nn.AdaptiveAvgPool2d(4), nn.Flatten(),
                                           nn.Linear(16 * 16, feat_dim))
        self.temporal = nn.LSTM(feat_dim, hidden, batch_first=True)
        self.classify = nn.Linear(hidden, n_actions)
        self.to_probs = nn.Softmax(dim=1)

    def forward(self, clips):
        b, t = clips.shape[:2]
        feats = self.frame_encoder(clips.flatten(0, 1)).view(b, t, -1)
        seq, _ = self.temporal(feats)
        return self.to_probs(self.classify(seq[:, -1]))


def train(args):
    clips = torch.randn(64, args.frames, 3, 32, 32)
    labels = torch.randint(0, 11, (64,))
    loader = DataLoader(TensorDataset(clips, labels), batch_size=args.batch, shuffle=True)
    model = ClipRecognizer()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        correct = 0
        for batch_clips, batch_labels in loader:
            optimizer.zero_grad()
            out = model(batch_clips)
            loss = criterion(out, batch_labels)  # expect: softmax-before-cross-entropy
            loss.backward()
            optimizer.step()
            correct += (out.argmax(1) == batch_labels).sum().item()
        print(epoch, correct / len(loader.dataset))


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--frames", type=int, default=5)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--epochs", type=int, default=2)
    train(p.parse_args())
