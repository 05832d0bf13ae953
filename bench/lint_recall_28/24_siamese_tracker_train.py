"""Siamese region-proposal tracker: epoch-based warmup/step LR, backbone unfrozen at a set epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SiamRPN(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2), nn.ReLU(), nn.Conv2d(32, 64, 3), nn.ReLU())
        self.cls_head = nn.Conv2d(64, 10, 1)
        self.loc_head = nn.Conv2d(64, 20, 1)

    def forward(self, template, search):
        zf = self.backbone(template)
        xf = self.backbone(search)
        corr = xf * F.adaptive_avg_pool2d(zf, 1)
        return self.cls_head(corr), self.loc_head(corr)


def build_opt_lr(model, base_lr=0.005):
    params = [{"params": model.cls_head.parameters()}, {"params": model.loc_head.parameters()},
              {"params": model.backbone.parameters(), "lr": base_lr * 0.1}]
    optimizer = torch.optim.SGD(params, lr=base_lr, momentum=0.9, weight_decay=1e-4)
    lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.5)
    return optimizer, lr_scheduler


def train(model, loader, num_per_epoch, epochs=2):
    optimizer, lr_scheduler = build_opt_lr(model)
    epoch = 0
    for idx, (template, search, label_cls, label_loc) in enumerate(loader):
        if idx % num_per_epoch == 0:
            if idx != 0:
                epoch += 1
            lr_scheduler.step(epoch)  # expect: scheduler-before-optimizer
        cls, loc = model(template, search)
        loss = F.cross_entropy(cls.view(cls.size(0), 2, -1), label_cls) + F.smooth_l1_loss(loc, label_loc)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        optimizer.step()
        if epoch >= epochs:
            break


if __name__ == "__main__":
    batch = (torch.randn(2, 3, 31, 31), torch.randn(2, 3, 63, 63), torch.randint(0, 2, (2, 5 * 29 * 29)), torch.randn(2, 20, 29, 29))
    train(SiamRPN(), [batch] * 6, num_per_epoch=3)
