"""Audio-visual sync expert training: cosine similarity between audio and video embeddings, BCE on in/out-of-sync pairs."""
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils import data as data_utils


class SyncNet(nn.Module):
    def __init__(self, emb_dim=512):
        super().__init__()
        self.face_encoder = nn.Sequential(nn.Conv2d(15, 64, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, emb_dim))
        self.audio_encoder = nn.Sequential(nn.Conv2d(1, 64, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, emb_dim))

    def forward(self, mel, faces):
        a = F.normalize(self.audio_encoder(mel), p=2, dim=1)
        v = F.normalize(self.face_encoder(faces), p=2, dim=1)
        return a, v


logloss = nn.BCELoss()


def cosine_loss(a, v, y):
    d = F.cosine_similarity(a, v).clamp(min=1e-6, max=1 - 1e-6)
    return logloss(d.unsqueeze(1), y)


def train(device, model, train_dataset, test_dataset, hparams, nepochs=100):
    train_data_loader = data_utils.DataLoader(
        train_dataset, batch_size=hparams["batch_size"], shuffle=False,  # expect: train-loader-not-shuffled
        num_workers=hparams["num_workers"])
    test_data_loader = data_utils.DataLoader(test_dataset, batch_size=hparams["batch_size"], num_workers=8)
    optimizer = torch.optim.Adam(model.parameters(), lr=hparams["lr"])
    for epoch in range(nepochs):
        model.train()
        running = 0.0
        for x, mel, y in train_data_loader:
            x, mel, y = x.to(device), mel.to(device), y.to(device)
            optimizer.zero_grad()
            a, v = model(mel, x)
            loss = cosine_loss(a, v, y)
            loss.backward()
            optimizer.step()
            running += loss.item()
        model.eval()
        with torch.no_grad():
            val = [cosine_loss(*model(mel.to(device), x.to(device)), y.to(device)).item() for x, mel, y in test_data_loader]
        print(epoch, running / max(len(train_data_loader), 1), sum(val) / max(len(val), 1))
