import argparse
import math

import torch
import torch.nn.functional as F
from torch import optim
from torch.optim.lr_scheduler import LambdaLR
from torch.utils.data import DataLoader


def cosine_with_warmup(optimizer, warmup, total, cycles=7. / 16.):
    def _lr(step):
        if step < warmup:
            return float(step) / float(max(1, warmup))
        progress = float(step - warmup) / float(max(1, total - warmup))
        return max(0., math.cos(math.pi * cycles * progress))
    return LambdaLR(optimizer, _lr)


class ModelEMA:
    def __init__(self, model, decay=0.999):
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for k, v in model.state_dict().items():
            if v.dtype.is_floating_point:
                self.shadow[k].mul_(self.decay).add_(v.detach(), alpha=1 - self.decay)
            else:
                self.shadow[k].copy_(v)


def train_epoch(args, labeled_loader, unlabeled_loader, model, optimizer, scheduler, ema):
    model.train()
    for (inputs_x, targets_x), ((weak, strong), _) in zip(labeled_loader, unlabeled_loader):
        bs = inputs_x.size(0)
        inputs = torch.cat([inputs_x, weak, strong]).to(args.device)
        targets_x = targets_x.to(args.device)
        logits = model(inputs)
        logits_x = logits[:bs]
        logits_w, logits_s = logits[bs:].chunk(2)

        loss_x = F.cross_entropy(logits_x, targets_x)
        probs = torch.softmax(logits_w.detach() / args.T, dim=-1)
        max_p, pseudo = probs.max(dim=-1)
        mask = max_p.ge(args.threshold).float()
        loss_u = (F.cross_entropy(logits_s, pseudo, reduction="none") * mask).mean()
        loss = loss_x + args.lambda_u * loss_u

        loss.backward()
        scheduler.step()  # expect: scheduler-before-optimizer
        optimizer.step()
        ema.update(model)
        model.zero_grad()


def main(model, labeled_set, unlabeled_set):
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.03)
    parser.add_argument("--T", type=float, default=1.0)
    parser.add_argument("--threshold", type=float, default=0.95)
    parser.add_argument("--lambda-u", type=float, default=1.0)
    parser.add_argument("--epochs", type=int, default=100)
    parser.add_argument("--device", default="cuda")
    args = parser.parse_args()

    labeled_loader = DataLoader(labeled_set, batch_size=64, shuffle=True, drop_last=True)
    unlabeled_loader = DataLoader(unlabeled_set, batch_size=448, shuffle=True, drop_last=True)
    model = model.to(args.device)
    optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True)
    total = args.epochs * len(labeled_loader)
    scheduler = cosine_with_warmup(optimizer, 0, total)
    ema = ModelEMA(model)
    for _ in range(args.epochs):
        train_epoch(args, labeled_loader, unlabeled_loader, model, optimizer, scheduler, ema)
