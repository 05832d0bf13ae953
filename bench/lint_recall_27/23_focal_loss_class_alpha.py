"""Focal loss with per-class alpha weights for an imbalanced text classifier."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, alpha=None, gamma=2.0, reduction="mean", ignore_index=-100):
        super().__init__()
        self.alpha = alpha
        self.gamma = gamma
        self.reduction = reduction
        self.ignore_index = ignore_index

    def forward(self, input, target):
        log_p = F.log_softmax(input, dim=-1)
        ce = F.nll_loss(log_p, target, reduction="none", ignore_index=self.ignore_index)
        p_t = torch.exp(-ce)
        focal_loss = (1 - p_t) ** self.gamma * ce
        weights = torch.ones_like(focal_loss, dtype=focal_loss.dtype, device=focal_loss.device)
        if self.alpha is not None:
            if isinstance(self.alpha, float):
                alpha = torch.tensor(self.alpha, device=input.device)
                weights = torch.where(target > 0, 1 - alpha, alpha)
            elif torch.is_tensor(self.alpha):
                self.alpha.to(input.device)  # expect: tensor-op-result-discarded
                weights = self.alpha.gather(0, target)
        tmp_loss = focal_loss * weights
        if self.reduction == "none":
            return tmp_loss
        if self.reduction == "sum":
            return tmp_loss.sum()
        return tmp_loss.mean()


def train_classifier(model, loader, class_counts, epochs=3, lr=2e-5, device="cuda"):
    alpha = 1.0 / torch.as_tensor(class_counts, dtype=torch.float)
    alpha = alpha / alpha.sum()
    criterion = FocalLoss(alpha=alpha, gamma=2.0)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    model.to(device)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for batch in loader:
            input_ids = batch["input_ids"].to(device)
            attention_mask = batch["attention_mask"].to(device)
            labels = batch["labels"].to(device)
            optimizer.zero_grad()
            logits = model(input_ids=input_ids, attention_mask=attention_mask).logits
            loss = criterion(logits, labels)
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} focal loss {total / max(len(loader), 1):.4f}")
