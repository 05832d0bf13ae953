# Source: https://github.com/chenyuntc/simple-faster-rcnn-pytorch/issues/43
# Pitfall: The detector's predict() wraps the image in Variable(..., volatile=True) to avoid building a
# graph; since PyTorch 0.4 the flag is ignored ("volatile was removed"), so autograd still records it.
# Reproduced in our own words, not the original code.
import torch
from torch.autograd import Variable


class Detector(torch.nn.Module):
    def __init__(self, extractor, rpn, head, device="cuda"):
        super().__init__()
        self.extractor = extractor
        self.rpn = rpn
        self.head = head
        self.device = device

    def forward(self, x, scale=1.0):
        feat = self.extractor(x)
        rois, roi_indices = self.rpn(feat, x.shape[2:], scale)
        return self.head(feat, rois, roi_indices), rois

    def predict(self, images):
        self.eval()
        outputs = []
        for img in images:
            img = Variable(torch.as_tensor(img).float()[None].to(self.device), volatile=True)  # expect: volatile-variable
            (cls_loc, scores), rois = self(img)
            outputs.append((cls_loc.cpu(), scores.softmax(dim=-1).cpu(), rois))
        self.train()
        return outputs
