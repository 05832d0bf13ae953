# Source: https://github.com/microsoft/ProDA/issues/20
# Pitfall: the self-distillation stage passes the student's softmax probabilities as the input of
#   F.kl_div, which expects log-probabilities; the maintainers confirmed it should be log_softmax.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


class SelfDistillStage:
    def __init__(self, student, teacher, optimizer, kd_weight=1.0, ignore_label=250):
        self.student = student
        self.teacher = teacher
        self.optimizer = optimizer
        self.kd_weight = kd_weight
        self.ignore_label = ignore_label
        self.teacher.eval()

    def step(self, images, pseudo_labels):
        self.student.train()
        out = self.student(images)
        seg_loss = F.cross_entropy(out, pseudo_labels, ignore_index=self.ignore_label)

        student = F.softmax(out, dim=1)
        with torch.no_grad():
            t_out = self.teacher(images)
            t_out = F.interpolate(t_out, size=out.shape[2:], mode="bilinear", align_corners=True)
            teacher = F.softmax(t_out, dim=1)
        kd_map = F.kl_div(student, teacher, reduction="none")  # expect: kl-div-input-not-log
        valid = (pseudo_labels != self.ignore_label).unsqueeze(1).float()
        kd_loss = (kd_map * valid).sum() / valid.sum().clamp(min=1.0)

        loss = seg_loss + self.kd_weight * kd_loss
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {"seg": seg_loss.item(), "kd": kd_loss.item()}
