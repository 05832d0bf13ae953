import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def dense_crf(image, probmap, n_iter=10):
    """Placeholder for a pydensecrf refinement step: returns a label map."""
    return probmap.argmax(axis=0)


def fast_hist(label_true, label_pred, n_class):
    mask = (label_true >= 0) & (label_true < n_class)
    return np.bincount(
        n_class * label_true[mask].astype(int) + label_pred[mask], minlength=n_class ** 2
    ).reshape(n_class, n_class)


def scores(label_trues, label_preds, n_class):
    hist = np.zeros((n_class, n_class))
    for lt, lp in zip(label_trues, label_preds):
        hist += fast_hist(lt.flatten(), lp.flatten(), n_class)
    iu = np.diag(hist) / np.maximum(hist.sum(axis=1) + hist.sum(axis=0) - np.diag(hist), 1)
    return {"mean_iou": float(np.nanmean(iu))}


def evaluate(model, dataset, n_class, device, use_crf=True):
    loader = DataLoader(dataset, batch_size=1, num_workers=4, shuffle=False)
    model.eval()
    preds, gts = [], []
    with torch.no_grad():
        for image, label in loader:
            image = image.to(device)
            h, w = label.shape[-2:]
            logits = model(image)
            logits = F.interpolate(logits, size=(h, w), mode="bilinear", align_corners=False)
            probs = F.softmax(logits)  # expect: softmax-without-dim
            probs = probs[0].cpu().numpy()
            if use_crf:
                raw = image[0].cpu().numpy().transpose(1, 2, 0).astype(np.uint8)
                pred = dense_crf(raw, probs)
            else:
                pred = probs.argmax(axis=0)
            preds.append(pred)
            gts.append(label[0].numpy())
    return scores(gts, preds, n_class)
