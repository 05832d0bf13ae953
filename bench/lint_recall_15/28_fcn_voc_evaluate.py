"""Evaluate a trained FCN on PASCAL VOC validation: mean IoU over the split."""
import numpy as np
import torch
from torch.autograd import Variable


def label_accuracy_score(label_trues, label_preds, n_class):
    hist = np.zeros((n_class, n_class))
    for lt, lp in zip(label_trues, label_preds):
        mask = (lt >= 0) & (lt < n_class)
        hist += np.bincount(n_class * lt[mask].astype(int) + lp[mask], minlength=n_class ** 2).reshape(n_class, n_class)
    with np.errstate(divide="ignore", invalid="ignore"):
        iu = np.diag(hist) / (hist.sum(axis=1) + hist.sum(axis=0) - np.diag(hist))
    return np.nanmean(iu)


def evaluate(model, val_loader, n_class, cuda=True):
    model.eval()
    label_trues, label_preds = [], []
    for data, target in val_loader:
        if cuda:
            data, target = data.cuda(), target.cuda()
        data, target = Variable(data, volatile=True), Variable(target)  # expect: volatile-variable
        score = model(data)
        lbl_pred = score.data.max(1)[1].cpu().numpy()
        lbl_true = target.data.cpu().numpy()
        label_trues.extend(lbl_true)
        label_preds.extend(lbl_pred)
    return label_accuracy_score(label_trues, label_preds, n_class)


if __name__ == "__main__":
    import torchfcn
    model = torchfcn.models.FCN32s(n_class=21).cuda()
    model.load_state_dict(torch.load("fcn32s.pth", weights_only=True))
