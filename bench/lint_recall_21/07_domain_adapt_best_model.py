"""Domain adversarial training (DANN) with best-checkpoint selection on the target validation set."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class GradientReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, coeff):
        ctx.coeff = coeff
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return -ctx.coeff * grad_output, None


class ImageClassifier(nn.Module):
    def __init__(self, in_dim, num_classes, bottleneck=256):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 512), nn.ReLU(), nn.Linear(512, bottleneck), nn.ReLU())
        self.head = nn.Linear(bottleneck, num_classes)

    def forward(self, x):
        f = self.backbone(x)
        return self.head(f), f


def validate(loader, classifier, device):
    classifier.eval()
    correct, total = 0, 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            logits, _ = classifier(x)
            correct += (logits.argmax(1) == y).sum().item()
            total += y.numel()
    return 100.0 * correct / total


def train_one_epoch(src_loader, tgt_loader, classifier, discriminator, optimizer, device, trade_off=1.0):
    classifier.train()
    discriminator.train()
    for (xs, ys), (xt, _) in zip(src_loader, tgt_loader):
        xs, ys, xt = xs.to(device), ys.to(device), xt.to(device)
        logits_s, fs = classifier(xs)
        _, ft = classifier(xt)
        cls_loss = F.cross_entropy(logits_s, ys)
        feats = GradientReverse.apply(torch.cat([fs, ft]), 1.0)
        domain_logits = discriminator(feats).squeeze(1)
        domain_labels = torch.cat([torch.ones(len(fs)), torch.zeros(len(ft))]).to(device)
        transfer_loss = F.binary_cross_entropy_with_logits(domain_logits, domain_labels)
        loss = cls_loss + trade_off * transfer_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(args):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    src = TensorDataset(torch.randn(2000, 128), torch.randint(0, 10, (2000,)))
    tgt = TensorDataset(torch.randn(2000, 128) + 0.5, torch.randint(0, 10, (2000,)))
    src_loader = DataLoader(src, batch_size=args.batch_size, shuffle=True, drop_last=True)
    tgt_loader = DataLoader(tgt, batch_size=args.batch_size, shuffle=True, drop_last=True)
    val_loader = DataLoader(tgt, batch_size=256)

    classifier = ImageClassifier(128, 10).to(device)
    discriminator = nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 1)).to(device)
    params = list(classifier.parameters()) + list(discriminator.parameters())
    optimizer = torch.optim.SGD(params, lr=args.lr, momentum=0.9, weight_decay=1e-3, nesterov=True)

    best_acc1 = 0.0
    best_model = None
    for epoch in range(args.epochs):
        train_one_epoch(src_loader, tgt_loader, classifier, discriminator, optimizer, device)
        acc1 = validate(val_loader, classifier, device)
        # remember best acc@1 and keep its weights
        if acc1 > best_acc1:
            best_model = classifier.state_dict()  # expect: state-dict-not-copied
        best_acc1 = max(acc1, best_acc1)
        print(f"epoch {epoch} acc@1 {acc1:.2f} best {best_acc1:.2f}")

    classifier.load_state_dict(best_model)
    print("test acc1 =", validate(val_loader, classifier, device))


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--batch_size", type=int, default=32)
    p.add_argument("--lr", type=float, default=0.01)
    main(p.parse_args())
