"""Field-aware factorization machine (FFM) for click prediction with latent vectors drawn from
U(0, 1) unscaled: the initial logits are in the tens to hundreds and exp() overflows.

Source: https://github.com/VinceShieh/spark-ffm/issues/12 (Weight Initialisation might be a cause for loss NaN)
Report: "As weights are initialized as codes line: 70 - line: 75, in file FFMWithAdag.scala,
standard deviation of Z = W * X + b roughly equals to sqrt(mn/2). Once it is larger than 706
(around), exp(z) becomes NaN. Proper initialization of weight should make the Gaussian
distribution more narrowed. coef = sqrt(1/mnk)?" (libffm scales the uniform draw by 1/sqrt(k)).
Reproduced in PyTorch with a 10-field FFM (k = 8) on synthetic one-hot click logs, the logistic
loss written as in the Scala code, log(1 + exp(-y z)) with y in {-1, +1}, and AdaGrad; in
float32 exp overflows past z = 88, so the unscaled U(0, 1) draw already overflows at step 0.

expect: bad-init
symptom: nonfinite
batch: 3
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_FIELDS, CARD, K = 10, 40, 8
N_FEAT = N_FIELDS * CARD


def click_logs(n):
    cats = torch.randint(0, CARD, (n, N_FIELDS))
    # true click model: a few field interactions (ad x site, ad x hour, device x site)
    g = torch.Generator().manual_seed(7)
    t1 = torch.randn(CARD, 3, generator=g) @ torch.randn(3, CARD, generator=g) / 3 ** 0.5
    t2 = torch.randn(CARD, 3, generator=g) @ torch.randn(3, CARD, generator=g) / 3 ** 0.5
    t3 = torch.randn(CARD, 3, generator=g) @ torch.randn(3, CARD, generator=g) / 3 ** 0.5
    logit = -1.0 + 1.2 * t1[cats[:, 0], cats[:, 1]] + 0.8 * t2[cats[:, 0], cats[:, 2]] + 0.6 * t3[cats[:, 3], cats[:, 1]]
    y = (torch.rand(n) < torch.sigmoid(logit)).float() * 2 - 1  # labels in {-1, +1}
    feat_ids = cats + torch.arange(N_FIELDS) * CARD        # global feature index per field
    return feat_ids, y


class FFM(nn.Module):
    def __init__(self):
        super().__init__()
        # one latent vector per (feature, other field)
        self.W = nn.Parameter(torch.rand(N_FEAT, N_FIELDS, K))
        self.bias = nn.Parameter(torch.zeros(1))
        self.lin = nn.Parameter(torch.zeros(N_FEAT))
        pairs = [(a, b) for a in range(N_FIELDS) for b in range(a + 1, N_FIELDS)]
        self.register_buffer("fa", torch.tensor([p[0] for p in pairs]))
        self.register_buffer("fb", torch.tensor([p[1] for p in pairs]))

    def forward(self, feat_ids):
        va = self.W[feat_ids[:, self.fa], self.fb]   # w_{i, f_j}
        vb = self.W[feat_ids[:, self.fb], self.fa]   # w_{j, f_i}
        return self.bias + self.lin[feat_ids].sum(1) + (va * vb).sum(-1).sum(-1)


def logistic_loss(z, y):
    return torch.log(1 + torch.exp(-y * z)).mean()


train_x, train_y = click_logs(40000)
test_x, test_y = click_logs(10000)
model = FFM()
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
losses = []
for it in range(300):
    idx = torch.randint(0, len(train_x), (256,))
    z = model(train_x[idx])
    loss = logistic_loss(z, train_y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    if it % 20 == 0:
        print(f"iter {it} logloss {loss.item():.4f} mean|z| {z.abs().mean().item():.1f}")

with torch.no_grad():
    zt = model(test_x)
    acc = ((zt > 0).float() * 2 - 1 == test_y).float().mean().item()
    print(f"test logloss {logistic_loss(zt, test_y).item():.4f}")
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")
