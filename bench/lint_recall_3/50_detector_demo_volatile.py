# Source: https://github.com/jwyang/faster-rcnn.pytorch/pull/420
# Pitfall: The demo/evaluation script still creates its input holders with volatile=True, which has no
# effect on PyTorch >= 0.4 (UserWarning), so the test forward builds and keeps an autograd graph.
# Reproduced in our own words, not the original code.
import torch
from torch.autograd import Variable


def make_holders(device):
    im_data = torch.empty(1, device=device)
    im_info = torch.empty(1, device=device)
    num_boxes = torch.empty(1, dtype=torch.long, device=device)
    gt_boxes = torch.empty(1, device=device)
    im_data = Variable(im_data, volatile=True)  # expect: volatile-variable
    return im_data, im_info, num_boxes, gt_boxes


def detect(fasterRCNN, blobs, device):
    fasterRCNN.eval()
    im_data, im_info, num_boxes, gt_boxes = make_holders(device)
    im_blob, info = blobs
    im_data.resize_(im_blob.size()).copy_(im_blob)
    im_info.resize_(info.size()).copy_(info)
    gt_boxes.resize_(1, 1, 5).zero_()
    num_boxes.resize_(1).zero_()
    rois, cls_prob, bbox_pred = fasterRCNN(im_data, im_info, gt_boxes, num_boxes)[:3]
    return rois, cls_prob, bbox_pred
