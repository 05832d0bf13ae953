"""Person re-identification: extract gallery/query embeddings and rank by cosine similarity."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import models


class ReIDNet(nn.Module):
    def __init__(self, num_ids=751, dim=512):
        super().__init__()
        backbone = models.resnet50(weights=None)
        backbone.fc = nn.Identity()
        self.backbone = backbone
        self.embed = nn.Sequential(nn.Linear(2048, dim), nn.BatchNorm1d(dim))
        self.classifier = nn.Linear(dim, num_ids)

    def forward(self, x, return_feature=False):
        f = self.embed(self.backbone(x))
        if return_feature:
            return f
        return self.classifier(f)


def fliplr(img):
    idx = torch.arange(img.size(3) - 1, -1, -1, device=img.device)
    return img.index_select(3, idx)


def extract_feature(model, loader, device):
    feats = []
    for imgs, _ in loader:
        imgs = imgs.to(device)
        f = model(imgs, return_feature=True) + model(fliplr(imgs), return_feature=True)  # expect: validation-in-train-mode
        f = f / f.norm(p=2, dim=1, keepdim=True).clamp_min(1e-12)
        feats.append(f.cpu())
    return torch.cat(feats, dim=0)


def rank1(query_f, query_ids, gallery_f, gallery_ids):
    scores = query_f @ gallery_f.t()
    best = scores.argmax(dim=1)
    return float((gallery_ids[best] == query_ids).float().mean())


def evaluate(model_path, gallery_set, query_set):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = ReIDNet()
    model.load_state_dict(torch.load(model_path, map_location="cpu", weights_only=True))
    model = model.to(device)
    model.eval()
    gallery_loader = DataLoader(gallery_set, batch_size=256, shuffle=False, num_workers=8)
    query_loader = DataLoader(query_set, batch_size=256, shuffle=False, num_workers=8)
    gallery_f = extract_feature(model, gallery_loader, device)
    query_f = extract_feature(model, query_loader, device)
    gallery_ids = torch.as_tensor(np.array(gallery_set.targets))
    query_ids = torch.as_tensor(np.array(query_set.targets))
    return rank1(query_f, query_ids, gallery_f, gallery_ids)
