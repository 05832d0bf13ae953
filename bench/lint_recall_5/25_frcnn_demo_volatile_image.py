# Source: https://github.com/jwyang/faster-rcnn.pytorch/pull/420
# Pitfall: the detection demo wraps its image blob in Variable(..., volatile=True); since PyTorch 0.4 the flag
#          is ignored (UserWarning), so autograd records the whole forward pass and holds its memory.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.autograd import Variable


class ProposalNet(nn.Module):
    def __init__(self, n_anchors=9, n_classes=21):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(3, 64, 3, 2, 1), nn.ReLU(), nn.Conv2d(64, 128, 3, 2, 1), nn.ReLU())
        self.rpn_cls = nn.Conv2d(128, n_anchors * 2, 1)
        self.rpn_box = nn.Conv2d(128, n_anchors * 4, 1)
        self.cls_head = nn.Linear(128, n_classes)

    def forward(self, im_data):
        feat = self.base(im_data)
        pooled = feat.mean(dim=(2, 3))
        return self.rpn_cls(feat), self.rpn_box(feat), self.cls_head(pooled)


def prepare_blob(frame, pixel_means=(102.98, 115.95, 122.77)):
    blob = frame - torch.tensor(pixel_means).view(1, 3, 1, 1)
    return blob


def run_demo(frames, weights_path=None):
    net = ProposalNet()
    if weights_path is not None:
        net.load_state_dict(torch.load(weights_path, map_location="cpu", weights_only=True))
    net.eval()
    for frame in frames:
        im_data = Variable(prepare_blob(frame), volatile=True)  # expect: volatile-variable
        rpn_scores, rpn_deltas, cls_scores = net(im_data)
        probs = torch.softmax(cls_scores, dim=1)
        print("top class", int(probs.argmax(dim=1)), "anchors", rpn_scores.shape[1] // 2)


if __name__ == "__main__":
    run_demo([torch.rand(1, 3, 224, 224) * 255 for _ in range(3)])
