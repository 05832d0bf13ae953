"""Active-learning loop for 3D segmentation: each round restarts from the previous best model."""
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build_unet(in_ch=1, out_ch=2):
    return nn.Sequential(
        nn.Conv3d(in_ch, 16, 3, padding=1), nn.InstanceNorm3d(16), nn.ReLU(),
        nn.Conv3d(16, 16, 3, padding=1), nn.InstanceNorm3d(16), nn.ReLU(),
        nn.Conv3d(16, out_ch, 1),
    )


def train_round(network, loader, device, max_epochs):
    optimizer = torch.optim.Adam(network.parameters(), lr=1e-4)
    loss_fn = nn.CrossEntropyLoss()
    for _ in range(max_epochs):
        network.train()
        for vol, seg in loader:
            vol, seg = vol.to(device), seg.to(device)
            optimizer.zero_grad()
            loss = loss_fn(network(vol), seg)
            loss.backward()
            optimizer.step()


def score_unlabeled(network, pool, device):
    network.eval()
    scores = []
    with torch.no_grad():
        for vol in pool:
            probs = torch.softmax(network(vol.unsqueeze(0).to(device)), dim=1)
            entropy = -(probs * torch.log(probs.clamp_min(1e-8))).sum(dim=1)
            scores.append(entropy.mean().item())
    return scores


def main(active_model_dir="./al_models", active_iters=3, max_epochs=2):
    os.makedirs(active_model_dir, exist_ok=True)
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    vols = torch.randn(8, 1, 16, 16, 16)
    segs = torch.randint(0, 2, (8, 16, 16, 16))
    pool = list(torch.randn(20, 1, 16, 16, 16))
    network = build_unet().to(device)

    for active_iter in range(active_iters):
        prev_best_ckpt = os.path.join(active_model_dir, "model.pt")
        if active_iter > 0:
            ckpt = torch.load(prev_best_ckpt)  # expect: torch-load-unsafe
            network.load_state_dict(ckpt)
            network.to(device=device)

        loader = DataLoader(TensorDataset(vols, segs), batch_size=2, shuffle=True)
        train_round(network, loader, device, max_epochs)
        torch.save(network.state_dict(), prev_best_ckpt)

        scores = score_unlabeled(network, pool, device)
        pick = max(range(len(scores)), key=scores.__getitem__)
        print(f"iter {active_iter}: most uncertain volume {pick} (entropy {scores[pick]:.3f})")


if __name__ == "__main__":
    main()
