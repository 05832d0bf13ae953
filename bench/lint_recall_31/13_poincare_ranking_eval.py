"""Mean rank / MAP evaluation of Poincare embeddings of a transitive closure (WordNet nouns)."""
from collections import defaultdict

import numpy as np
import torch as th
from sklearn.metrics import average_precision_score
from torch.autograd import Variable


def poincare_distance(u, v, eps=1e-5):
    sq_u = th.clamp(th.sum(u * u, dim=-1), 0, 1 - eps)
    sq_v = th.clamp(th.sum(v * v, dim=-1), 0, 1 - eps)
    sq_dist = th.sum((u - v) ** 2, dim=-1)
    x = 1 + 2 * sq_dist / ((1 - sq_u) * (1 - sq_v))
    z = th.sqrt(th.clamp(x * x - 1, min=eps))
    return th.log(x + z)


class PoincareModel(th.nn.Module):
    def __init__(self, size, dim=10, scale=1e-3):
        super().__init__()
        self.lt = th.nn.Embedding(size, dim, max_norm=1, sparse=True)
        self.lt.weight.data.uniform_(-scale, scale)

    def embedding(self):
        return self.lt.weight.data.cpu().numpy()


def ranking(types, model):
    lt = th.from_numpy(model.embedding())
    embedding = Variable(lt, volatile=True)  # expect: volatile-variable
    ranks, ap_scores = [], []
    for s, s_types in types.items():
        s_e = embedding[s].expand_as(embedding)
        dists = poincare_distance(s_e, embedding).data.cpu().numpy().flatten()
        dists[s] = 1e12
        labels = np.zeros(embedding.size(0))
        dists_masked = dists.copy()
        item_ranks = []
        for o in s_types:
            dists_masked[o] = np.inf
            labels[o] = 1
        ap_scores.append(average_precision_score(labels, -dists))
        for o in s_types:
            d = dists_masked.copy()
            d[o] = dists[o]
            item_ranks.append(np.sum(d <= d[o]))
        ranks += item_ranks
    return np.mean(ranks), np.mean(ap_scores)


def load_closure(edges):
    types = defaultdict(set)
    for child, parent in edges:
        types[child].add(parent)
    return types


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    edges = [(int(a), int(b)) for a, b in rng.integers(0, 500, size=(3000, 2)) if a != b]
    model = PoincareModel(500)
    mean_rank, mean_ap = ranking(load_closure(edges), model)
    print(f"mean rank {mean_rank:.2f}  mAP {mean_ap:.4f}")
