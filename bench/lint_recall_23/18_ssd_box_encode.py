"""SSD box encoding and the MultiBox training loss (localization + confidence)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def point_form(boxes):
    return torch.cat((boxes[:, :2] - boxes[:, 2:] / 2, boxes[:, :2] + boxes[:, 2:] / 2), 1)


def encode(matched, priors, variances):
    g_cxcy = (matched[:, :2] + matched[:, 2:]) / 2 - priors[:, :2]
    g_cxcy /= variances[0] * priors[:, 2:]
    g_wh = (matched[:, 2:] - matched[:, :2]) / priors[:, 2:]
    g_wh = torch.log(g_wh) / variances[1]  # expect: unguarded-zero
    return torch.cat([g_cxcy, g_wh], 1)


def jaccard(box_a, box_b):
    max_xy = torch.min(box_a[:, None, 2:], box_b[None, :, 2:])
    min_xy = torch.max(box_a[:, None, :2], box_b[None, :, :2])
    inter = torch.clamp(max_xy - min_xy, min=0).prod(dim=2)
    area_a = ((box_a[:, 2] - box_a[:, 0]) * (box_a[:, 3] - box_a[:, 1]))[:, None]
    area_b = ((box_b[:, 2] - box_b[:, 0]) * (box_b[:, 3] - box_b[:, 1]))[None, :]
    return inter / (area_a + area_b - inter)


class MultiBoxLoss(nn.Module):
    def __init__(self, priors, threshold=0.5, variances=(0.1, 0.2)):
        super().__init__()
        self.priors = priors
        self.threshold = threshold
        self.variances = variances

    def forward(self, loc_data, conf_data, targets):
        loc_t, conf_t = [], []
        for truths in targets:
            overlaps = jaccard(truths[:, :4], point_form(self.priors))
            best_truth_overlap, best_truth_idx = overlaps.max(0)
            matches = truths[best_truth_idx]
            conf = matches[:, 4].long() + 1
            conf[best_truth_overlap < self.threshold] = 0
            loc_t.append(encode(matches[:, :4], self.priors, self.variances))
            conf_t.append(conf)
        loc_t, conf_t = torch.stack(loc_t), torch.stack(conf_t)
        pos = conf_t > 0
        num_pos = pos.sum().clamp(min=1).float()
        loss_l = F.smooth_l1_loss(loc_data[pos], loc_t[pos], reduction="sum") / num_pos
        loss_c = F.cross_entropy(conf_data.view(-1, conf_data.size(-1)), conf_t.view(-1))
        return loss_l, loss_c


def train(net, loader, priors, epochs=10):
    criterion = MultiBoxLoss(priors)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=5e-4)
    for epoch in range(epochs):
        net.train()
        for images, targets in loader:
            loc, conf = net(images)
            loss_l, loss_c = criterion(loc, conf, targets)
            loss = loss_l + loss_c
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loc {loss_l.item():.3f} conf {loss_c.item():.3f}")
