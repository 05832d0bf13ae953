"""fastai-0.7 style learner utilities: fit loop and validation written for old PyTorch."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable


def to_gpu(x):
    return x.cuda() if torch.cuda.is_available() else x


def V(x):
    return Variable(to_gpu(x))


def step(model, optimizer, crit, xs, y, clip=None):
    output = model(*xs)
    loss = crit(output, y)
    optimizer.zero_grad()
    loss.backward()
    if clip:
        nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    return loss.item()


def validate(model, dl, crit, metrics):
    model.eval()
    batch_cnts, loss, res = [], [], []
    for *x, y in dl:
        xs = [Variable(to_gpu(t), volatile=True) for t in x]  # expect: volatile-variable
        yv = Variable(to_gpu(y), volatile=True)  # expect: volatile-variable
        preds = model(*xs)
        batch_cnts.append(len(y))
        loss.append(crit(preds, yv).item())
        res.append([f(preds.data, yv.data) for f in metrics])
    return [np.average(loss, 0, weights=batch_cnts)] + list(np.average(np.stack(res), 0, weights=batch_cnts))


def accuracy(preds, targs):
    return (preds.argmax(dim=1) == targs).float().mean().item()


def fit(model, trn_dl, val_dl, n_epochs, lr=1e-3):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    crit = F.cross_entropy
    for epoch in range(n_epochs):
        model.train()
        losses = []
        for *x, y in trn_dl:
            losses.append(step(model, optimizer, crit, [V(t) for t in x], V(y), clip=0.25))
        vals = validate(model, val_dl, crit, [accuracy])
        print(epoch, np.mean(losses), vals)
