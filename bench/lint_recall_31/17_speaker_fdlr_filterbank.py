"""Speaker verification front-end with a learnable triangular filterbank (fDLR) + x-vector TDNN."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class fDLR(nn.Module):
    """Learnable triangular filters over linear-frequency power spectra."""

    def __init__(self, input_dim=161, sr=16000, num_filter=40):
        super().__init__()
        freqs = np.linspace(0, sr // 2, input_dim)
        centers = np.linspace(0, sr // 2, num_filter + 2)[1:-1]
        self.register_buffer("input_freq", torch.tensor(freqs, dtype=torch.float32).unsqueeze(0))
        self.centers = nn.Parameter(torch.tensor(centers, dtype=torch.float32).unsqueeze(1))
        self.bandwidth = nn.Parameter(torch.full((num_filter, 1), float(centers[1] - centers[0])))
        self.num_filter = num_filter

    def forward(self, power_spec):
        dist_center = torch.abs(self.input_freq - self.centers) / self.bandwidth.abs().clamp_min(1.0)
        weights = 1.0 - dist_center.clamp_max(1)
        fbank = torch.matmul(power_spec, weights.transpose(0, 1))
        return torch.log(fbank)  # expect: unguarded-zero


class TDNN(nn.Module):
    def __init__(self, num_filter=40, embed_dim=512, n_speakers=1211):
        super().__init__()
        self.front = fDLR(num_filter=num_filter)
        self.frames = nn.Sequential(
            nn.Conv1d(num_filter, 512, 5, dilation=1), nn.ReLU(), nn.BatchNorm1d(512),
            nn.Conv1d(512, 512, 3, dilation=2), nn.ReLU(), nn.BatchNorm1d(512),
            nn.Conv1d(512, 1500, 1), nn.ReLU(), nn.BatchNorm1d(1500),
        )
        self.segment = nn.Linear(3000, embed_dim)
        self.classifier = nn.Linear(embed_dim, n_speakers)

    def forward(self, spec):
        feats = self.front(spec).transpose(1, 2)
        h = self.frames(feats)
        stats = torch.cat([h.mean(dim=2), torch.sqrt(h.var(dim=2) + 1e-5)], dim=1)
        embedding = self.segment(stats)
        return self.classifier(F.relu(embedding)), embedding


def train_epoch(model, loader, optimizer, device):
    model.train()
    total, correct, running = 0, 0, 0.0
    for spec, label in loader:
        spec, label = spec.to(device), label.to(device)
        logits, _ = model(spec)
        loss = F.cross_entropy(logits, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
        correct += (logits.argmax(1) == label).sum().item()
        total += label.size(0)
    return running / len(loader), correct / max(total, 1)


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    net = TDNN().to(dev)
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-5)
    batches = [(torch.rand(8, 300, 161) ** 2, torch.randint(0, 1211, (8,))) for _ in range(4)]
    print(train_epoch(net, batches, opt, dev))
