"""YOLO-style detection head and its objectness / class loss terms."""
import torch
import torch.nn as nn


class YoloHead(nn.Module):
    def __init__(self, nC, anchors, stride):
        super().__init__()
        self.nA = len(anchors)
        self.nC = nC
        self.register_buffer("anchors", torch.tensor(anchors, dtype=torch.float32))
        self.stride = stride

    def forward(self, p):
        bs, nG = p.shape[0], p.shape[-1]
        p = p.view(bs, self.nA, 5 + self.nC, nG, nG).permute(0, 3, 4, 1, 2)
        conv_raw_dxdy = p[..., 0:2]
        conv_raw_dwdh = p[..., 2:4]
        conv_raw_conf = p[..., 4:5]
        conv_raw_prob = p[..., 5:]
        y = torch.arange(0, nG, device=p.device).unsqueeze(1).repeat(1, nG)
        x = torch.arange(0, nG, device=p.device).unsqueeze(0).repeat(nG, 1)
        grid_xy = torch.stack([x, y], dim=-1).unsqueeze(0).unsqueeze(3).float()
        pred_xy = (torch.sigmoid(conv_raw_dxdy) + grid_xy) * self.stride
        pred_wh = (torch.exp(conv_raw_dwdh.clamp(max=8.0)) * self.anchors) * self.stride
        pred_conf = torch.sigmoid(conv_raw_conf)
        pred_prob = torch.sigmoid(conv_raw_prob)
        pred_bbox = torch.cat([pred_xy, pred_wh, pred_conf, pred_prob], dim=-1)
        return p, pred_bbox


class YoloLoss(nn.Module):
    def __init__(self, iou_threshold_loss=0.5):
        super().__init__()
        self.iou_threshold_loss = iou_threshold_loss
        self.bce = nn.BCEWithLogitsLoss(reduction="none")

    def forward(self, p, p_d, label, max_iou):
        p_d_conf = p_d[..., 4:5]
        p_d_cls = p_d[..., 5:]
        label_obj_mask = label[..., 4:5]
        label_cls = label[..., 6:]
        label_noobj_mask = (1.0 - label_obj_mask) * (max_iou < self.iou_threshold_loss).float()
        loss_conf = label_obj_mask * self.bce(p_d_conf, label_obj_mask) + label_noobj_mask * self.bce(p_d_conf, label_obj_mask)  # expect: sigmoid-before-bce-with-logits
        loss_cls = label_obj_mask * self.bce(p[..., 5:], label_cls)
        batch_size = p.shape[0]
        return (loss_conf.sum() + loss_cls.sum()) / batch_size, p_d_cls
