"""Efficient segmentation networks: validation pass computing mean IoU."""
import numpy as np
import torch


def confusion(pred, label, n_classes):
    mask = (label >= 0) & (label < n_classes)
    return np.bincount(n_classes * label[mask] + pred[mask], minlength=n_classes ** 2).reshape(n_classes, n_classes)


def val(args, val_loader, model):
    model.eval()
    total_batches = len(val_loader)
    hist = np.zeros((args.classes, args.classes))
    for i, (inp, label, size, name) in enumerate(val_loader):
        input_var = inp.cuda()
        output = model(input_var)  # expect: validation-in-train-mode
        output = output.cpu().data[0].numpy().transpose(1, 2, 0)
        output = np.asarray(np.argmax(output, axis=2), dtype=np.int64)
        gt = np.asarray(label[0].numpy(), dtype=np.int64)
        hist += confusion(output.flatten(), gt.flatten(), args.classes)
        if i % 50 == 0:
            print(f"[{i + 1}/{total_batches}]")
    iou = np.diag(hist) / np.maximum(hist.sum(1) + hist.sum(0) - np.diag(hist), 1)
    model.train()
    return np.nanmean(iou), iou
