"""Hard/soft distillation loss wrapper for a data-efficient image transformer."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DistillationLoss(nn.Module):
    def __init__(self, base_criterion, teacher_model, distillation_type="soft", alpha=0.5, tau=3.0):
        super().__init__()
        assert distillation_type in ("none", "soft", "hard")
        self.base_criterion = base_criterion
        self.teacher_model = teacher_model
        self.distillation_type = distillation_type
        self.alpha = alpha
        self.tau = tau

    def forward(self, inputs, outputs, labels):
        outputs_kd = None
        if not isinstance(outputs, torch.Tensor):
            outputs, outputs_kd = outputs
        base_loss = self.base_criterion(outputs, labels)
        if self.distillation_type == "none":
            return base_loss
        with torch.no_grad():
            teacher_outputs = self.teacher_model(inputs)
        if self.distillation_type == "soft":
            T = self.tau
            distillation_loss = F.kl_div(
                F.log_softmax(outputs_kd / T, dim=1),
                F.log_softmax(teacher_outputs / T, dim=1),
                reduction="mean",  # expect: kl-div-mean-reduction
                log_target=True,
            ) * (T * T)
        else:
            distillation_loss = F.cross_entropy(outputs_kd, teacher_outputs.argmax(dim=1))
        return base_loss * (1 - self.alpha) + distillation_loss * self.alpha


def train_one_epoch(model, criterion, loader, optimizer, device):
    model.train()
    for samples, targets in loader:
        samples, targets = samples.to(device), targets.to(device)
        outputs = model(samples)
        loss = criterion(samples, outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
