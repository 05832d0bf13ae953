# Source: https://github.com/kornia/kornia/pull/2125
# Pitfall: the binary focal loss takes log(sigmoid(x)) and log(sigmoid(-x)) in two steps; for large
#   logits the sigmoid saturates to 0 and the log gives -inf, so the loss is not numerically stable.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def binary_focal_loss_with_logits(input, target, alpha=0.25, gamma=2.0, reduction="mean"):
    probs_pos = torch.sigmoid(input)
    probs_neg = torch.sigmoid(-input)
    loss_tmp = -alpha * probs_neg.pow(gamma) * target * torch.log(probs_pos) - (1 - alpha) * probs_pos.pow(gamma) * (1 - target) * torch.log(probs_neg)  # expect: log-of-softmax
    if reduction == "mean":
        return loss_tmp.mean()
    if reduction == "sum":
        return loss_tmp.sum()
    return loss_tmp


class BinaryFocalLossWithLogits(nn.Module):
    def __init__(self, alpha, gamma=2.0, reduction="mean"):
        super().__init__()
        self.alpha, self.gamma, self.reduction = alpha, gamma, reduction

    def forward(self, input, target):
        return binary_focal_loss_with_logits(input, target, self.alpha, self.gamma, self.reduction)


class EdgeDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
            nn.Conv2d(32, 1, 1),
        )

    def forward(self, x):
        return self.body(x)


if __name__ == "__main__":
    net = EdgeDetector()
    criterion = BinaryFocalLossWithLogits(alpha=0.25)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    for it in range(50):
        images = torch.rand(8, 3, 64, 64)
        edges = (torch.rand(8, 1, 64, 64) > 0.9).float()
        net.train()
        optimizer.zero_grad()
        loss = criterion(net(images), edges)
        loss.backward()
        optimizer.step()
        if it % 10 == 0:
            print(it, loss.item())
