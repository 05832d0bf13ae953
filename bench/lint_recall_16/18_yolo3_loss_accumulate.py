"""YOLOv3-style detector: one fit epoch with train and validation loss reporting."""
import torch
import torch.nn as nn


class YoloHeadLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.bce = nn.BCEWithLogitsLoss()
        self.mse = nn.MSELoss()

    def forward(self, pred, target):
        # pred / target: (B, A, H, W, 5 + C)
        obj_loss = self.bce(pred[..., 4], target[..., 4])
        box_loss = self.mse(pred[..., :4], target[..., :4])
        cls_loss = self.bce(pred[..., 5:], target[..., 5:])
        return obj_loss + box_loss + cls_loss


def fit_one_epoch(net, yolo_loss, optimizer, gen, gen_val, epoch, cuda):
    total_loss = 0
    val_loss = 0

    net.train()
    for iteration, (images, targets) in enumerate(gen):
        if cuda:
            images, targets = images.cuda(), targets.cuda()
        optimizer.zero_grad()
        outputs = net(images)
        loss = yolo_loss(outputs, targets)
        loss.backward()
        optimizer.step()
        total_loss += loss  # expect: running-loss-keeps-graph

    net.eval()
    with torch.no_grad():
        for images_val, targets_val in gen_val:
            if cuda:
                images_val, targets_val = images_val.cuda(), targets_val.cuda()
            outputs = net(images_val)
            val_loss += yolo_loss(outputs, targets_val).item()

    print(f"Epoch {epoch + 1}: Total Loss {float(total_loss) / (iteration + 1):.4f} "
          f"|| Val Loss {val_loss / max(len(gen_val), 1):.4f}")
    return val_loss


class TinyDetector(nn.Module):
    def __init__(self, num_anchors=3, num_classes=20):
        super().__init__()
        self.A, self.C = num_anchors, num_classes
        self.body = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.LeakyReLU(0.1),
                                  nn.Conv2d(32, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.LeakyReLU(0.1))
        self.head = nn.Conv2d(64, num_anchors * (5 + num_classes), 1)

    def forward(self, x):
        out = self.head(self.body(x))
        b, _, h, w = out.shape
        return out.view(b, self.A, 5 + self.C, h, w).permute(0, 1, 3, 4, 2)
