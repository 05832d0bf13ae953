"""Contrastive predictive coding (CPC) on raw audio: train / validation steps."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class CPCEncoder(nn.Module):
    def __init__(self, hidden=256):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, hidden, 10, 5, 3), nn.ReLU(),
            nn.Conv1d(hidden, hidden, 8, 4, 2), nn.ReLU(),
            nn.Conv1d(hidden, hidden, 4, 2, 1), nn.ReLU(),
        )

    def forward(self, wav):
        return self.conv(wav).transpose(1, 2)


class CPCModelCriterion(nn.Module):
    def __init__(self, hidden=256, n_predicts=12, n_negatives=128):
        super().__init__()
        self.encoder = CPCEncoder(hidden)
        self.ar = nn.GRU(hidden, hidden, batch_first=True)
        self.predictors = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(n_predicts)])
        self.n_predicts, self.n_negatives = n_predicts, n_negatives

    def forward(self, batch_data, label):
        enc = self.encoder(batch_data)
        ctx, _ = self.ar(enc)
        B, T, D = enc.shape
        window = T - self.n_predicts
        losses, accs = [], []
        for k, pred in enumerate(self.predictors, start=1):
            target = enc[:, k:k + window]
            neg_idx = torch.randint(0, B * T, (B, window, self.n_negatives), device=enc.device)
            negatives = enc.reshape(B * T, D)[neg_idx]
            candidates = torch.cat([target.unsqueeze(2), negatives], dim=2)
            scores = (pred(ctx[:, :window]).unsqueeze(2) * candidates).sum(-1)
            zeros = torch.zeros(B * window, dtype=torch.long, device=enc.device)
            losses.append(F.cross_entropy(scores.view(B * window, -1), zeros, reduction="none").view(B, window).mean(1))
            accs.append((scores.argmax(-1) == 0).float().mean(1))
        return torch.stack(losses, 1), torch.stack(accs, 1)


def train_step(data_loader, model_criterion, optimizer):
    model_criterion.train()
    logs = {"locLoss_train": 0.0}
    for step, (batch_data, label) in enumerate(data_loader):
        batch_data = batch_data.cuda(non_blocking=True)
        label = label.cuda(non_blocking=True)
        all_losses, _ = model_criterion(batch_data, label)
        tot_loss = all_losses.sum()
        optimizer.zero_grad()
        tot_loss.backward()
        optimizer.step()
        logs["locLoss_train"] += all_losses.mean().item()
    return logs


def val_step(data_loader, model_criterion):
    model_criterion.eval()
    logs = {"step": 0}
    for step, (batch_data, label) in enumerate(data_loader):
        batch_data = batch_data.cuda(non_blocking=True)
        label = label.cuda(non_blocking=True)
        all_losses, all_acc = model_criterion(batch_data, label)  # expect: validation-in-train-mode
        if "locLoss_val" not in logs:
            logs["locLoss_val"] = np.zeros(all_losses.size(1))
            logs["locAcc_val"] = np.zeros(all_losses.size(1))
        logs["step"] += 1
        logs["locLoss_val"] += all_losses.mean(dim=0).detach().cpu().numpy()
        logs["locAcc_val"] += all_acc.mean(dim=0).detach().cpu().numpy()
    return logs


if __name__ == "__main__":
    model = CPCModelCriterion().cuda()
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    data = [(torch.randn(8, 1, 20480), torch.zeros(8, dtype=torch.long)) for _ in range(4)]
    for epoch in range(2):
        print(train_step(data, model, opt)["locLoss_train"], val_step(data, model)["locLoss_val"].mean())
