"""Two-stage detector training: fit_one_epoch accumulates the RPN and ROI losses for the progress bar."""
import torch
from tqdm import tqdm


class FasterRCNNTrainer(torch.nn.Module):
    def __init__(self, model, optimizer):
        super().__init__()
        self.model = model
        self.optimizer = optimizer

    def forward(self, imgs, bboxes, labels, scale):
        rpn_loc, rpn_cls, roi_loc, roi_cls = self.model(imgs, bboxes, labels, scale)
        total = rpn_loc + rpn_cls + roi_loc + roi_cls
        return [rpn_loc, rpn_cls, roi_loc, roi_cls, total]

    def train_step(self, imgs, bboxes, labels, scale):
        self.optimizer.zero_grad()
        losses = self.forward(imgs, bboxes, labels, scale)
        losses[-1].backward()
        self.optimizer.step()
        return losses


def fit_one_epoch(train_util, epoch, epoch_step, gen, gen_val, epochs, cuda):
    total_loss = 0
    rpn_loc_loss = 0
    rpn_cls_loss = 0
    roi_loc_loss = 0
    roi_cls_loss = 0
    val_loss = 0

    train_util.model.train()
    with tqdm(total=epoch_step, desc=f"Epoch {epoch + 1}/{epochs}", mininterval=0.3) as pbar:
        for iteration, (images, boxes, labels) in enumerate(gen):
            if iteration >= epoch_step:
                break
            if cuda:
                images = images.cuda()
            rpn_loc, rpn_cls, roi_loc, roi_cls, total = train_util.train_step(images, boxes, labels, 1)
            total_loss += total  # expect: running-loss-keeps-graph
            rpn_loc_loss += rpn_loc.item()
            rpn_cls_loss += rpn_cls.item()
            roi_loc_loss += roi_loc.item()
            roi_cls_loss += roi_cls.item()
            pbar.set_postfix(total_loss=float(total_loss) / (iteration + 1),
                             rpn_loc=rpn_loc_loss / (iteration + 1),
                             rpn_cls=rpn_cls_loss / (iteration + 1),
                             roi_loc=roi_loc_loss / (iteration + 1),
                             roi_cls=roi_cls_loss / (iteration + 1))
            pbar.update(1)

    train_util.model.eval()
    with torch.no_grad():
        for iteration, (images, boxes, labels) in enumerate(gen_val):
            if cuda:
                images = images.cuda()
            _, _, _, _, val_total = train_util.forward(images, boxes, labels, 1)
            val_loss += val_total.item()

    torch.save(train_util.model.state_dict(),
               f"logs/ep{epoch + 1:03d}-loss{float(total_loss) / epoch_step:.3f}-val{val_loss / max(len(gen_val), 1):.3f}.pth")
    return val_loss
