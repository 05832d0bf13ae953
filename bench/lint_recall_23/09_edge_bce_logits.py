"""Gated-shape segmentation: a shape stream predicts edges, trained with weighted BCE."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ShapeStream(nn.Module):
    def __init__(self, in_ch=64):
        super().__init__()
        self.res = nn.Sequential(nn.Conv2d(in_ch, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 16, 3, padding=1))
        self.edge_conv = nn.Conv2d(16, 1, 1)
        self.sigmoid = nn.Sigmoid()

    def forward(self, feats):
        cs = self.edge_conv(F.relu(self.res(feats)))
        edge_out = self.sigmoid(cs)
        return edge_out


def weighted_edge_bce(edge_pred, edge_target):
    log_p = edge_pred.permute(0, 2, 3, 1).reshape(1, -1)
    target_t = edge_target.permute(0, 2, 3, 1).reshape(1, -1).float()
    pos = target_t == 1
    neg = target_t == 0
    weight = torch.zeros_like(log_p)
    n_pos, n_neg = pos.sum().float(), neg.sum().float()
    total = (n_pos + n_neg).clamp(min=1.0)
    weight[pos] = n_neg / total
    weight[neg] = n_pos / total
    return F.binary_cross_entropy_with_logits(log_p, target_t, weight, reduction="mean")  # expect: sigmoid-before-bce-with-logits


class JointEdgeSegLoss(nn.Module):
    def __init__(self, edge_weight=1.0, seg_weight=1.0, ignore_index=255):
        super().__init__()
        self.edge_weight = edge_weight
        self.seg_weight = seg_weight
        self.seg_loss = nn.CrossEntropyLoss(ignore_index=ignore_index)

    def forward(self, seg_logits, edge_pred, seg_mask, edge_mask):
        return {
            "seg": self.seg_weight * self.seg_loss(seg_logits, seg_mask),
            "edge": self.edge_weight * 20 * weighted_edge_bce(edge_pred, edge_mask),
        }


if __name__ == "__main__":
    stream = ShapeStream()
    seg_head = nn.Conv2d(64, 19, 1)
    params = list(stream.parameters()) + list(seg_head.parameters())
    opt = torch.optim.SGD(params, lr=0.01, momentum=0.9)
    crit = JointEdgeSegLoss()
    for it in range(10):
        feats = torch.randn(2, 64, 32, 32)
        losses = crit(seg_head(feats), stream(feats), torch.randint(0, 19, (2, 32, 32)),
                      torch.randint(0, 2, (2, 1, 32, 32)))
        total = sum(losses.values())
        opt.zero_grad()
        total.backward()
        opt.step()
        print(it, {k: round(v.item(), 4) for k, v in losses.items()})
