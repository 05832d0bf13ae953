import torch
from tqdm import tqdm


def fit_one_epoch(net, train_util, optimizer, epoch, epoch_step, gen, gen_val, Epoch, cuda):
    total_loss = 0
    rpn_loc_loss = 0
    rpn_cls_loss = 0
    roi_loc_loss = 0
    roi_cls_loss = 0
    val_loss = 0
    net.train()
    with tqdm(total=epoch_step, desc=f"Epoch {epoch + 1}/{Epoch}") as pbar:
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
            pbar.set_postfix(total_loss=float(total_loss) / (iteration + 1))
            pbar.update(1)
    net.eval()
    with torch.no_grad():
        for iteration, (images, boxes, labels) in enumerate(gen_val):
            if cuda:
                images = images.cuda()
            _, _, _, _, val_total = train_util.forward(images, boxes, labels, 1)
            val_loss += val_total.item()
    net.train()
    return float(total_loss) / epoch_step, val_loss / max(len(gen_val), 1)
