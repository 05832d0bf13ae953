# Source: https://github.com/facebookresearch/detectron2/issues/2486
# Pitfall: the optimizer is built only from parameters with requires_grad=True; the box head is
# unfrozen at iteration 500, but its parameters were never given to the optimizer, so they never move.
# Reproduced in our own words, not the original code.
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

log = logging.getLogger(__name__)


class TwoStageDetector(nn.Module):
    def __init__(self, backbone, proposal_net, box_head, box_predictor):
        super().__init__()
        self.backbone = backbone
        self.proposal_net = proposal_net
        self.box_head = box_head
        self.box_predictor = box_predictor
        for p in self.box_head.parameters():
            p.requires_grad = False

    def release_box_head(self):
        for p in self.box_head.parameters():
            p.requires_grad = True  # expect: optimizer-misses-params
        log.info("box head unfrozen")

    def forward(self, images, targets):
        feats = self.backbone(images)
        rois, rpn_loss = self.proposal_net(feats, targets)
        pooled = self.box_head(rois)
        cls_logits, box_deltas = self.box_predictor(pooled)
        cls_loss = F.cross_entropy(cls_logits, targets["roi_labels"])
        reg_loss = F.smooth_l1_loss(box_deltas, targets["roi_deltas"])
        return {"rpn": rpn_loss, "cls": cls_loss, "reg": reg_loss}


def make_solver(model, base_lr, momentum=0.9, weight_decay=1e-4):
    trainable = [p for p in model.parameters() if p.requires_grad]
    return torch.optim.SGD(trainable, lr=base_lr, momentum=momentum, weight_decay=weight_decay)


def run(model, batches, base_lr=0.0025, max_iter=30000, unfreeze_at=500):
    solver = make_solver(model, base_lr)
    model.train()
    for it, (images, targets) in zip(range(max_iter), batches):
        if it == unfreeze_at:
            model.release_box_head()
        losses = model(images, targets)
        total = sum(losses.values())
        solver.zero_grad()
        total.backward()
        solver.step()
        if it % 20 == 0:
            log.info("iter %d total %.4f %s", it, total.item(),
                     {k: round(v.item(), 4) for k, v in losses.items()})
