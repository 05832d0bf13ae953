"""Inception score computed between WGAN epochs to monitor sample quality."""
import numpy as np
import torch
import torch.nn.functional as F
from scipy.stats import entropy
from torch.utils.data import DataLoader
from torchvision.models import inception_v3


def get_inception_score(imgs, cuda=True, batch_size=32, resize=True, splits=1):
    n = len(imgs)
    device = torch.device("cuda" if cuda else "cpu")
    dataloader = DataLoader(imgs, batch_size=batch_size, shuffle=False)
    inception_model = inception_v3(weights="DEFAULT", transform_input=False).to(device)
    inception_model.eval()

    def get_pred(x):
        if resize:
            x = F.interpolate(x, size=(299, 299), mode="bilinear", align_corners=False)
        x = inception_model(x)
        return F.softmax(x).data.cpu().numpy()  # expect: softmax-without-dim

    preds = np.zeros((n, 1000))
    with torch.no_grad():
        for i, batch in enumerate(dataloader):
            batch = batch.to(device)
            size_i = batch.size(0)
            preds[i * batch_size:i * batch_size + size_i] = get_pred(batch)

    split_scores = []
    for k in range(splits):
        part = preds[k * (n // splits):(k + 1) * (n // splits), :]
        py = np.mean(part, axis=0)
        scores = [entropy(part[i, :], py) for i in range(part.shape[0])]
        split_scores.append(np.exp(np.mean(scores)))
    return np.mean(split_scores), np.std(split_scores)


def evaluate_generator(G, z_dim=100, n_samples=800, device="cuda"):
    G.eval()
    with torch.no_grad():
        z = torch.randn(n_samples, z_dim, 1, 1, device=device)
        samples = G(z).mul(0.5).add(0.5).cpu()
    G.train()
    mean, std = get_inception_score(list(samples), cuda=device == "cuda")
    print(f"inception score {mean:.3f} +/- {std:.3f}")
    return mean
