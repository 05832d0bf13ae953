"""DeepSurv Cox network on flchain-like covariates -- fixed as the answer that worked: features
min-max scaled to [0, 1] (MinMaxScaler fitted on the training set) before training.

Source: https://github.com/jaredleekatzman/DeepSurv/issues/14 (loss goes to nan)
Report: "I am working on the public datasets at this link: .../Rdatasets/datasets.html in
particular I have tried "aids2" and "flchain". Nevertheless in both cases ... 'train':
[array(28340558372.044426), array(nan), array(nan), ...], 'train_ci': [0.5, 0.5, ...]".
Another user: "I have similar issue with a different dataset!" Answer that worked: "I recommend
trying to normalize your features ... Normalize these to have a value ranging from 0-1. I use
Sklearn's ... MinMaxScaler" -- "thanks for the comment, that worked for me!". Reproduced with
DeepSurv's model (MLP 25-25 ReLU, dropout 0.4, linear risk output), its negative log Cox partial
likelihood (patients sorted by descending time, log of the cumulative sum of exp(risk) as the
risk set, averaged over observed events), full-batch Nesterov-momentum SGD (lr 1e-4, momentum
0.9, L2 1e-3), on synthetic flchain-like patients (age, sex, sample.yr, kappa, lambda, flc.grp,
creatinine, mgus on their raw scales; exponential survival times driven by age, the light
chains and creatinine; ~30 % events); `acc` is the test concordance index.

expect: data-unnormalized
symptom: nonfinite
batch: 4
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def flchain(n):
    age = 50 + 45 * torch.rand(n) ** 1.5
    sex = (torch.rand(n) < 0.55).float()
    sample_yr = torch.randint(1995, 2004, (n,)).float()
    kappa = (torch.randn(n) * 0.5 + 0.3).exp()
    lam = (torch.randn(n) * 0.45 + 0.5).exp()
    flc_grp = torch.clamp(((kappa + lam) * 2.5).floor(), 1, 10)
    creatinine = (torch.randn(n) * 0.3 + 0.0).exp()
    mgus = (torch.rand(n) < 0.01).float()
    log_h = 0.08 * (age - 65) + 0.4 * torch.log(kappa + lam) + 0.5 * torch.log(creatinine) - 0.2 * sex
    t_event = torch.distributions.Exponential(0.03 * log_h.exp()).sample()
    t_censor = 2 + 12 * torch.rand(n)
    time = torch.minimum(t_event, t_censor)
    event = (t_event <= t_censor).float()
    x = torch.stack([age, sex, sample_yr, kappa, lam, flc_grp, creatinine, mgus], 1)
    return x, time, event


def preprocess(x_train, x_test):
    lo, hi = x_train.min(0).values, x_train.max(0).values  # MinMaxScaler fitted on the training set
    return (x_train - lo) / (hi - lo), (x_test - lo) / (hi - lo)


class DeepSurv(nn.Module):
    def __init__(self, n_in, hidden=(25, 25), dropout=0.4):
        super().__init__()
        layers, d = [], n_in
        for h in hidden:
            layers += [nn.Linear(d, h), nn.ReLU(), nn.Dropout(dropout)]
            d = h
        layers.append(nn.Linear(d, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x).squeeze(1)


def negative_log_likelihood(risk, event):
    hazard_ratio = torch.exp(risk)
    log_risk = torch.log(torch.cumsum(hazard_ratio, 0))
    uncensored_likelihood = risk - log_risk
    censored_likelihood = uncensored_likelihood * event
    return -torch.sum(censored_likelihood) / torch.sum(event)


def concordance_index(time, risk, event):
    order = time.argsort()
    t, r, e = time[order], risk[order], event[order]
    num = den = 0.0
    for i in range(len(t)):
        if e[i] == 1:
            later = t > t[i]
            den += later.sum().item()
            num += (r[i] > r[later]).sum().item() + 0.5 * (r[i] == r[later]).sum().item()
    return num / max(den, 1)


x_train, t_train, e_train = flchain(2000)
x_test, t_test, e_test = flchain(500)
x_train, x_test = preprocess(x_train, x_test)
order = torch.argsort(t_train, descending=True)  # risk sets via cumulative sums
x_train, t_train, e_train = x_train[order], t_train[order], e_train[order]

model = DeepSurv(x_train.shape[1])
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9, nesterov=True, weight_decay=1e-3)
losses = []
for epoch in range(300):
    model.train()
    loss = negative_log_likelihood(model(x_train), e_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    if epoch % 50 == 0:
        print(f"epoch {epoch} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    ci = concordance_index(t_test, model(x_test), e_test)
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={ci:.4f}")
