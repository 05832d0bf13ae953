"""Caption model evaluation over the validation split (fc + att features)."""
import numpy as np
import torch
from torch.autograd import Variable


def eval_split(model, crit, loader, split="val", max_images=5000):
    model.eval()
    loss_sum, n_batches, predictions = 0.0, 0, []
    seen = 0
    while seen < max_images:
        data = loader.get_batch(split)
        tmp = [data["fc_feats"], data["att_feats"], data["labels"], data["masks"]]
        tmp = [Variable(torch.from_numpy(t), volatile=True).cuda() for t in tmp]  # expect: volatile-variable
        fc_feats, att_feats, labels, masks = tmp
        with torch.no_grad():
            loss = crit(model(fc_feats, att_feats, labels), labels[:, 1:], masks[:, 1:])
            seq, _ = model.sample(fc_feats, att_feats)
        loss_sum += loss.item()
        n_batches += 1
        predictions.extend(loader.decode(seq.cpu().numpy()))
        seen += fc_feats.size(0)
        if data["wrapped"]:
            break
    model.train()
    return loss_sum / max(n_batches, 1), predictions
