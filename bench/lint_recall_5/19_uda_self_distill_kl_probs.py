# Source: https://github.com/microsoft/ProDA/issues/43
# Pitfall: the self-distillation term passes the student's softmax probabilities as the input of F.kl_div,
#          which expects log-probabilities, so the "KL" it optimises is not a divergence at all.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SegNet(nn.Module):
    def __init__(self, n_cls=19):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, n_cls, 1))

    def forward(self, x):
        return {"out": self.body(x)}


class Adapter:
    def __init__(self, distill_weight=1.0):
        self.student = SegNet()
        self.teacher = SegNet()
        self.teacher.load_state_dict(self.student.state_dict())
        self.teacher.eval()
        for p in self.teacher.parameters():
            p.requires_grad_(False)
        self.optim = torch.optim.SGD(self.student.parameters(), lr=1e-4, momentum=0.9)
        self.distill_weight = distill_weight

    def step(self, target_img, target_img_strong):
        self.student.train()
        self.optim.zero_grad()
        out = self.student(target_img_strong)["out"]
        student = F.softmax(out, dim=1)
        with torch.no_grad():
            teacher = F.softmax(self.teacher(target_img)["out"], dim=1)
        loss_kd = F.kl_div(student, teacher, reduction="none")  # expect: kl-div-input-not-log
        loss_kd = loss_kd.sum(dim=1).mean()
        loss = self.distill_weight * loss_kd
        loss.backward()
        self.optim.step()
        return loss.item()


if __name__ == "__main__":
    a = Adapter()
    for _ in range(3):
        img = torch.randn(2, 3, 64, 64)
        print(a.step(img, img + 0.1 * torch.randn_like(img)))
