"""Domain-adaptive segmentation, stage 3: self-distillation of a student from a frozen teacher with pseudo labels."""
import torch
import torch.nn.functional as F


class SelfDistillStage:
    def __init__(self, student, teacher, optimizer, distillation=1.0, ignore_index=250):
        self.student = student
        self.teacher = teacher.eval()
        for p in self.teacher.parameters():
            p.requires_grad_(False)
        self.optimizer = optimizer
        self.distillation = distillation
        self.ignore_index = ignore_index

    def step(self, target_image, target_image_strong, pseudo_label):
        self.student.train()
        target_out = self.student(target_image_strong)
        target_out = F.interpolate(target_out, size=pseudo_label.shape[-2:], mode="bilinear", align_corners=True)
        loss = F.cross_entropy(target_out, pseudo_label, ignore_index=self.ignore_index)

        if self.distillation > 0:
            student = F.softmax(target_out, dim=1)
            with torch.no_grad():
                teacher_out = self.teacher(target_image)
                teacher_out = F.interpolate(teacher_out, size=pseudo_label.shape[-2:], mode="bilinear",
                                            align_corners=True)
                teacher = F.softmax(teacher_out, dim=1)
            loss_kd = F.kl_div(student, teacher, reduction="none")  # expect: kl-div-input-not-log
            mask = (pseudo_label != self.ignore_index).float().unsqueeze(1)
            loss_kd = (loss_kd * mask).sum() / mask.sum().clamp_min(1.0)
            loss = loss + self.distillation * loss_kd

        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def run(stage, target_loader, iters=40000, log_every=50):
    it = 0
    while it < iters:
        for img, img_strong, pseudo in target_loader:
            loss = stage.step(img.cuda(), img_strong.cuda(), pseudo.cuda())
            it += 1
            if it % log_every == 0:
                print(f"iter {it}: loss {loss:.4f}")
            if it >= iters:
                break
