# Source: https://github.com/rimchang/Faster-RCNN-Pytorch-Simple/issues/2
# Pitfall: the box-regression loss re-wraps `bbox_pred.data * weights` in a fresh Variable, so the
#   regression term is cut off from the network and backward() never reaches the box head.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable


def to_var(x):
    return Variable(x.cuda() if torch.cuda.is_available() else x)


class RCNNHead(nn.Module):
    def __init__(self, in_ch=512, pool=7, n_classes=21):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(in_ch * pool * pool, 1024), nn.ReLU(inplace=True),
                                nn.Linear(1024, 1024), nn.ReLU(inplace=True))
        self.cls_score = nn.Linear(1024, n_classes)
        self.bbox_pred = nn.Linear(1024, n_classes * 4)

    def forward(self, pooled):
        h = self.fc(pooled.flatten(1))
        return self.cls_score(h), self.bbox_pred(h)


def frcnn_loss(cls_score, frcnn_bbox_pred, labels, bbox_targets, bbox_inside_weights):
    frcnn_loss_cls = F.cross_entropy(cls_score, labels)
    fg_cnt = (labels > 0).sum().item()
    frcnn_bbox_pred = to_var(torch.mul(frcnn_bbox_pred.data, bbox_inside_weights))  # expect: backward-without-graph
    frcnn_bbox_targets = torch.mul(bbox_targets, bbox_inside_weights)
    frcnn_loss_reg = F.smooth_l1_loss(frcnn_bbox_pred, frcnn_bbox_targets, reduction="sum") / (fg_cnt + 1e-4)
    return frcnn_loss_cls + frcnn_loss_reg


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    head = RCNNHead().to(device)
    optimizer = torch.optim.SGD(head.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
    for it in range(10):
        pooled = torch.randn(128, 512, 7, 7, device=device)
        labels = torch.randint(0, 21, (128,), device=device)
        targets = torch.randn(128, 84, device=device)
        weights = torch.zeros(128, 84, device=device)
        for i, c in enumerate(labels.tolist()):
            if c > 0:
                weights[i, 4 * c:4 * c + 4] = 1.0
        head.train()
        optimizer.zero_grad()
        cls_score, bbox = head(pooled)
        loss = frcnn_loss(cls_score, bbox, labels, targets, weights)
        loss.backward()
        optimizer.step()
        print(it, loss.item())
