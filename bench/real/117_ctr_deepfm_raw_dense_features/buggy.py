"""CTR model (EasyRec-style DeepFM) fed raw dense features -- prices, counts, seconds, metres -- without bucketizing or normalising: the logits blow up, the log loss sits far above the base rate and does not converge.

Source: https://github.com/alibaba/EasyRec/issues/23 (Loss很大(>9), 不收敛 -- loss is very large (>9) and does not converge)
Report: the user's loss stayed above 9 and did not converge; the resolution: "raw features没有做
离散化或者归一化" (the raw features were neither discretized nor normalized). Reproduced with EasyRec's
DeepFM shape (sparse id features -> embeddings for the FM part and the deep tower, raw dense
features concatenated into the deep tower input, wide logit + FM logit + DNN logit, sigmoid
cross-entropy, Adam lr=1e-3, batch 512) on a synthetic click log with 3 id features and 5
numeric features on their raw scales (price in cents, 7-day clicks, watch seconds, age, distance
in metres); the printed loss is the validation log loss, `acc` the validation AUC.

expect: data-unnormalized
symptom: final-loss-ratio 2
batch: 6
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

ID_SIZES = (1000, 50, 30)                  # user bucket, item category, city
id_effect = [0.6 * torch.randn(n) for n in ID_SIZES]


def make(n):
    ids = torch.stack([torch.randint(0, s, (n,)) for s in ID_SIZES], 1)
    price = torch.exp(9 + 1.5 * torch.randn(n))                  # cents
    clicks = torch.poisson(torch.exp(3 + 1.0 * torch.randn(n)))  # 7-day clicks
    watch = torch.exp(6 + 2.0 * torch.randn(n))                  # seconds
    age = torch.randint(18, 70, (n,)).float()
    dist = torch.exp(9 + 1.5 * torch.randn(n))                   # metres
    dense = torch.stack([price, clicks, watch, age, dist], 1)
    z = (torch.log1p(dense) - torch.tensor([9.0, 3.0, 6.0, 3.7, 9.0])) / torch.tensor([1.5, 1.0, 2.0, 0.3, 1.5])
    logit = -1.5 + z @ torch.tensor([-0.6, 0.8, 0.7, -0.3, -0.5]) + sum(e[ids[:, k]] for k, e in enumerate(id_effect))
    y = (torch.rand(n) < torch.sigmoid(logit)).float()
    return ids, dense, y


class DeepFM(nn.Module):
    def __init__(self, emb_dim=8, dense_dim=5, hidden=(128, 64)):
        super().__init__()
        self.embeddings = nn.ModuleList([nn.Embedding(n, emb_dim) for n in ID_SIZES])
        self.wide = nn.ModuleList([nn.Embedding(n, 1) for n in ID_SIZES])
        for e in [*self.embeddings, *self.wide]:
            nn.init.normal_(e.weight, std=0.05)
        layers, d = [], emb_dim * len(ID_SIZES) + dense_dim
        for h in hidden:
            layers += [nn.Linear(d, h), nn.ReLU()]
            d = h
        self.dnn = nn.Sequential(*layers, nn.Linear(d, 1))

    def forward(self, ids, dense):
        embs = torch.stack([e(ids[:, k]) for k, e in enumerate(self.embeddings)], 1)
        fm = 0.5 * (embs.sum(1) ** 2 - (embs ** 2).sum(1)).sum(1)
        wide = sum(w(ids[:, k]).squeeze(1) for k, w in enumerate(self.wide))
        deep = self.dnn(torch.cat([embs.flatten(1), dense], 1)).squeeze(1)
        return wide + fm + deep


def auc(score, y):
    order = score.argsort()
    ranks = torch.empty_like(order, dtype=torch.float)
    ranks[order] = torch.arange(1, len(score) + 1).float()
    n_pos = y.sum()
    return ((ranks[y == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * (len(y) - n_pos))).item()


train, valid = make(40000), make(10000)


def feature_transform(dense):
    return dense


model = DeepFM()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(8):
    model.train()
    ids, dense, y = train
    perm = torch.randperm(len(y))
    for i in range(0, len(y), 512):
        idx = perm[i:i + 512]
        logits = model(ids[idx], feature_transform(dense[idx]))
        loss = F.binary_cross_entropy_with_logits(logits, y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        logits = model(valid[0], feature_transform(valid[1]))
        val_loss = F.binary_cross_entropy_with_logits(logits, valid[2]).item()
        val_auc = auc(logits, valid[2])
    print(f"epoch {epoch} train loss {loss.item():.4f} valid loss {val_loss:.4f} auc {val_auc:.4f}")
print(f"final_loss={val_loss:.6g} acc={val_auc:.4f}")
