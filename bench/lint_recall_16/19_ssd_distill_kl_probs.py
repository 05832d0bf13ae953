"""SSD-lite student distilled from a teacher detector: soft-label loss on class confidences."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DistillMultiBoxLoss(nn.Module):
    def __init__(self, num_classes=21, T=2.0, alpha=0.5, lmda=1.0):
        super().__init__()
        self.num_classes = num_classes
        self.T = T
        self.alpha = alpha
        self.lmda = lmda

    def forward(self, student_out, teacher_out, loc_t, conf_t):
        loc_p, conf_p = student_out
        _, confT_p = teacher_out
        pos = conf_t > 0
        num_pos = pos.sum().clamp(min=1).float()

        # localisation on positive priors only
        loss_reg = F.smooth_l1_loss(loc_p[pos], loc_t[pos], reduction="sum")
        # hard-label classification
        loss_cls = F.cross_entropy(conf_p.view(-1, self.num_classes), conf_t.view(-1), reduction="sum")
        loss_ssd = (loss_cls + self.lmda * loss_reg) / num_pos

        # soft-label term from the teacher
        conf_p = conf_p.view(-1, self.num_classes)
        confT_p = confT_p.view(-1, self.num_classes).detach()
        conf_p = F.softmax(conf_p / self.T, dim=1)
        t_dist = F.softmax(confT_p / self.T, dim=1)
        loss_soft = F.kl_div(conf_p, t_dist, reduction="batchmean") * (self.T ** 2)  # expect: kl-div-input-not-log
        return self.alpha * loss_soft + (1 - self.alpha) * loss_ssd


def train(student, teacher, loader, iterations=1000, lr=1e-3, device="cpu"):
    criterion = DistillMultiBoxLoss()
    optimizer = torch.optim.SGD(student.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)
    teacher.eval()
    student.train()
    batch_iterator = iter(loader)
    for iteration in range(iterations):
        try:
            images, loc_t, conf_t = next(batch_iterator)
        except StopIteration:
            batch_iterator = iter(loader)
            images, loc_t, conf_t = next(batch_iterator)
        images, loc_t, conf_t = images.to(device), loc_t.to(device), conf_t.to(device)
        with torch.no_grad():
            teacher_out = teacher(images)
        optimizer.zero_grad()
        loss = criterion(student(images), teacher_out, loc_t, conf_t)
        loss.backward()
        optimizer.step()
        if iteration % 50 == 0:
            print(f"iter {iteration} | loss {loss.item():.4f}")
