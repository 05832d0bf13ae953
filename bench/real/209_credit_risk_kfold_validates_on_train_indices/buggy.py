"""Credit-risk classifier evaluated with 5-fold cross-validation (a small MLP on one-hot and scaled
applicant attributes, binary cross-entropy, Adam, minibatches sliced from the fold's rows). Inside
the fold loop the validation rows are taken with the training indices -- `val = data[train_idx]`
instead of `data[val_idx]` -- so every fold is "validated" on exactly the rows it was fitted on;
the cross-validated loss and accuracy measure memorisation of the training rows, not performance on
unseen applicants, and come out far better than the model really is.

Source: https://github.com/andpol5/credit-classifier/issues/1 (Is validation correct??)
Report: "for train_indices, val_indices in kf: ... train_dataset = dataset[train_indices,:]
val_dataset = dataset[train_indices,:] ... Actually val_indices is not used in any other part of
the code, and in reality looking at the above code it appears that we are using the same set for
training and validation." -- author: "thanks for finding the bug! ... just the matter of properly
setting val_indices: `val_dataset = dataset[val_indices,:]`". Reproduced with 1,000 synthetic
applicants (7 numeric attributes and 4 categorical ones one-hot encoded, 31 inputs, a default label
drawn from a logistic model with label noise, about 30% defaults), 5 folds, an MLP 31-64-64-1,
Adam lr 1e-3, batches of 50, 10 epochs per fold. The printed loss is the cross-validated BCE,
`acc` the cross-validated accuracy.

expect: data-leakage
symptom: loss-below 0.41
batch: 12
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

n = 1000
numeric = torch.randn(n, 7)
cats = [torch.randint(0, k, (n,)) for k in (4, 5, 10, 5)]
onehot = torch.cat([F.one_hot(c, k).float() for c, k in zip(cats, (4, 5, 10, 5))], 1)
data_x = torch.cat([numeric, onehot], 1)
cat_effect = torch.randn(24) * 0.8
logit = (numeric[:, :4] @ torch.tensor([1.0, -0.8, 0.6, 0.4]) + onehot @ cat_effect
         + 0.5 * numeric[:, 4] * numeric[:, 5] - 0.9)
data_y = (torch.rand(n) < torch.sigmoid(logit)).float()

folds = torch.randperm(n).chunk(5)
val_losses, val_accs = [], []
for k in range(5):
    val_idx = folds[k]
    train_idx = torch.cat([folds[j] for j in range(5) if j != k])
    train_x, train_y = data_x[train_idx], data_y[train_idx]
    val_x, val_y = data_x[train_idx], data_y[train_idx]

    model = nn.Sequential(nn.Linear(31, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(10):
        order = torch.randperm(len(train_x))
        for i in range(0, len(order), 50):
            idx = order[i:i + 50]
            loss = F.binary_cross_entropy_with_logits(model(train_x[idx]).squeeze(1), train_y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        logits = model(val_x).squeeze(1)
        val_losses.append(F.binary_cross_entropy_with_logits(logits, val_y).item())
        val_accs.append(((logits > 0).float() == val_y).float().mean().item())
    print(f"fold {k} train_loss {loss.item():.4f} val_loss {val_losses[-1]:.4f} val_acc {val_accs[-1]:.4f}")

print(f"final_loss={sum(val_losses) / 5:.6g} acc={sum(val_accs) / 5:.4f}")
