"""Graph network event classifier (track vs cascade) with a probability task head and AMP training."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BinaryCrossEntropyLoss(nn.Module):
    """Loss on per-event probabilities produced by the task head."""

    def forward(self, prediction, target):
        return F.binary_cross_entropy(prediction.squeeze(-1), target.float(), reduction="none")  # expect: sigmoid-before-bce


class BinaryClassificationTask(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.affine = nn.Linear(hidden, 1)

    def forward(self, x):
        return torch.sigmoid(self.affine(x))


class PointGNN(nn.Module):
    def __init__(self, n_features, hidden=64):
        super().__init__()
        self.node = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, hidden))

    def forward(self, x, batch_index, n_events):
        h = self.node(x)
        pooled = torch.zeros(n_events, h.size(1), device=h.device).index_add_(0, batch_index, h)
        counts = torch.bincount(batch_index, minlength=n_events).clamp(min=1).unsqueeze(1)
        return pooled / counts


def train_epoch(backbone, task, loss_fn, optimizer, scaler, loader):
    backbone.train()
    task.train()
    for x, batch_index, target in loader:
        n_events = target.size(0)
        optimizer.zero_grad()
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            prob = task(backbone(x, batch_index, n_events))
            loss = loss_fn(prob, target).mean()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()


if __name__ == "__main__":
    gnn = PointGNN(7)
    head = BinaryClassificationTask(64)
    opt = torch.optim.Adam(list(gnn.parameters()) + list(head.parameters()), lr=1e-3)
    grad_scaler = torch.cuda.amp.GradScaler()
    pulses = torch.randn(40, 7)
    idx = torch.randint(0, 4, (40,))
    train_epoch(gnn, head, BinaryCrossEntropyLoss(), opt, grad_scaler, [(pulses, idx, torch.tensor([0, 1, 1, 0]))])
