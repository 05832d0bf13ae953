"""Person re-identification: query/gallery feature extraction for evaluation."""
import numpy as np
import torch
from torch.autograd import Variable


def extract(model, loader, use_gpu):
    feats, pids, camids = [], [], []
    for imgs, batch_pids, batch_camids in loader:
        if use_gpu:
            imgs = imgs.cuda()
        imgs = Variable(imgs, volatile=True)  # expect: volatile-variable
        features = model(imgs)
        feats.append(features.data.cpu())
        pids.extend(batch_pids)
        camids.extend(batch_camids)
    return torch.cat(feats, 0), np.asarray(pids), np.asarray(camids)


def test(model, queryloader, galleryloader, use_gpu, ranks=(1, 5, 10, 20)):
    model.eval()
    qf, q_pids, q_camids = extract(model, queryloader, use_gpu)
    gf, g_pids, g_camids = extract(model, galleryloader, use_gpu)

    m, n = qf.size(0), gf.size(0)
    distmat = torch.pow(qf, 2).sum(dim=1, keepdim=True).expand(m, n) + \
        torch.pow(gf, 2).sum(dim=1, keepdim=True).expand(n, m).t()
    distmat.addmm_(qf, gf.t(), beta=1, alpha=-2)
    distmat = distmat.numpy()

    indices = np.argsort(distmat, axis=1)
    matches = (g_pids[indices] == q_pids[:, np.newaxis]).astype(np.int32)
    cmc = matches.cumsum(axis=1).clip(max=1).mean(axis=0)
    for r in ranks:
        print("Rank-{:<3}: {:.1%}".format(r, cmc[r - 1]))
    model.train()
    return cmc[0]
