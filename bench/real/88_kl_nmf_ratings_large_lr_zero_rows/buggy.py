"""Non-negative matrix factorisation of a rating matrix with the generalized KL-divergence loss
(libmf's KL solver) and a too-large learning rate: projected-to-zero factor rows make p.q = 0,
the loss hits log(r / 0) and the factors turn NaN within the first steps.

Source: https://github.com/cjlin1/libmf/issues/21 (NaN Values during training)
Report: "I am currently trying to factorize a matrix using the MF_Solver with the KL Loss
function. I experience NaN values during my training either after the 1st or the 2nd
iteration ... there might be an issue with large gradients causing negative values which are
then converted to 0's in the sg_update function. This however seems to create 0 rows/columns in
either my P or Q matrix ... prepare_for_sg_update will calculate z=0, which results in NaN
values ... Can ... my parameters (especially the learning rate) be adjusted?" Answer: "I also
meat this problem. As you say, it's because the learning rate is to big. Using a small learning
rate will solve this problem." Reproduced in torch with libmf's KL objective
sum(r log(r / z) - r + z), z = p_u . q_i, non-negative factors (projected to >= 0 after each
update as libmf does), AdaGrad-style per-parameter step sizes (libmf's adaptive learning rate)
and mini-batches of 256 ratings, learning rate 2.0 (libmf's default eta is 0.1), on a
synthetic implicit-count matrix (2000 users x 500 items, k = 16, Poisson counts from
non-negative low-rank preferences, only positive entries observed);
`acc` is the share of held-out counts predicted within 50 %.

expect: lr-too-high
symptom: nonfinite
batch: 4
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_U, N_I, K = 2000, 500, 16
true_p, true_q = torch.rand(N_U, 4) ** 2 * 2, torch.rand(N_I, 4) ** 2 * 2
users = torch.randint(0, N_U, (60000,))
items = torch.randint(0, N_I, (60000,))
counts = torch.poisson((true_p[users] * true_q[items]).sum(1) * 2)
keep = counts > 0                                  # libmf's KL solver needs positive entries
users, items, counts = users[keep], items[keep], counts[keep]
n_test = len(counts) // 10
test = (users[:n_test], items[:n_test], counts[:n_test])
users, items, counts = users[n_test:], items[n_test:], counts[n_test:]

ETA = 2.0                                          # learning rate
P = (torch.rand(N_U, K) / K ** 0.5).requires_grad_()
Q = (torch.rand(N_I, K) / K ** 0.5).requires_grad_()
optimizer = torch.optim.Adagrad([P, Q], lr=ETA)
losses = []
for epoch in range(4):
    perm = torch.randperm(len(counts))
    for s in range(0, len(perm), 256):
        b = perm[s:s + 256]
        r = counts[b]
        z = (P[users[b]] * Q[items[b]]).sum(1)
        loss = (r * torch.log(r / z) - r + z).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():                     # non-negativity: project onto >= 0
            P.clamp_(min=0)
            Q.clamp_(min=0)
        losses.append(loss.item())
    print(f"epoch {epoch} KL loss {sum(losses[-50:]) / 50:.4f}")

with torch.no_grad():
    z = (P[test[0]] * Q[test[1]]).sum(1)
    acc = ((z - test[2]).abs() <= 0.5 * test[2]).float().mean().item()
print(f"final_loss={sum(losses[-50:]) / 50:.6g} acc={acc:.4f}")
