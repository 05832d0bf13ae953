"""Poincare embeddings of a noun hierarchy: reconstruction evaluation."""
import numpy as np
import torch
from torch.autograd import Variable


def poincare_distance(u, v, eps=1e-5):
    sqdist = torch.sum((u - v) ** 2, dim=-1)
    squnorm = torch.clamp(torch.sum(u * u, dim=-1), 0, 1 - eps)
    sqvnorm = torch.clamp(torch.sum(v * v, dim=-1), 0, 1 - eps)
    x = sqdist / ((1 - squnorm) * (1 - sqvnorm)) * 2 + 1
    z = torch.sqrt(torch.clamp(x * x - 1, min=eps))
    return torch.log(x + z)


def ranking(types, model, distfn):
    lt = model.embedding.weight.data
    embedding = Variable(lt, volatile=True)  # expect: volatile-variable
    ranks, ap_scores = [], []
    for s, s_types in types.items():
        s_e = embedding[s].expand_as(embedding)
        dists = distfn(s_e, embedding).data.cpu().numpy().flatten()
        dists[s] = 1e12
        sorted_idx = dists.argsort()
        ranked = np.searchsorted(sorted_idx, list(s_types))
        ranks.extend((ranked + 1).tolist())
        ap_scores.append(np.mean([(k + 1) / (r + 1) for k, r in enumerate(sorted(ranked))]))
    return float(np.mean(ranks)), float(np.mean(ap_scores))


def train(model, data_loader, optimizer, epochs, types):
    for epoch in range(epochs):
        model.train()
        epoch_loss = 0.0
        for inputs, targets in data_loader:
            optimizer.zero_grad()
            preds = model(inputs)
            loss = model.loss(preds, targets)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        model.eval()
        mean_rank, map_rank = ranking(types, model, poincare_distance)
        print(f"epoch {epoch}: loss {epoch_loss:.3f} mean_rank {mean_rank:.2f} mAP {map_rank:.4f}")
