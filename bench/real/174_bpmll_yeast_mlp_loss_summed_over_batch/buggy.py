"""BP-MLL multi-label network (yeast-gene-function-like data: 103 features, 14 functional classes; MLP 128-64 with ReLU, sigmoid outputs) trained with the BP-MLL pairwise ranking loss summed over the samples of the batch and plain SGD: the gradient grows with the batch size (256), the first steps throw the weights far out, the sigmoid outputs saturate and the ranking loss stays far above that of the same network trained on the batch-averaged loss.

Source: https://github.com/vanHavel/bp-mll-tensorflow/pull/2 (Average error instead of summing it)
PR text: "When doing batched learning, averaging the error gives more consistent results over
different batch sizes and generally behaves better"; the merged change replaces the final
`tf.reduce_sum(results)` of `bp_mll_loss` (one normalised pairwise exp-loss per sample) by
`tf.reduce_mean(results)`. Reproduced with the repo's loss ported line by line to PyTorch
(`pairwise_and` / `pairwise_sub`, exp of negated differences over (relevant, irrelevant) label
pairs, divided by |Y||Y-bar|) and the model of its full example (Dense 128 relu, Dense 64 relu,
Dense n_labels sigmoid, Glorot-uniform init), trained with SGD lr 1.0 in batches of 256 for 60
epochs on 2,400 synthetic yeast-like examples (labels from thresholded nonlinear projections of
the features, about 4 labels per gene). The printed loss is the mean per-example BP-MLL loss of
the last epoch (for either reduction), `acc` is precision-at-1 (share of held-out genes whose
top-ranked label is relevant).

expect: loss-reduction
symptom: loss-above 0.7
batch: 10
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

DIM, CLASSES = 103, 14


def make_yeast(n, proj, bias):
    X = torch.randn(n, DIM)
    h = torch.tanh(X @ proj[0]) @ proj[1]
    Y = (h + 0.3 * torch.randn(n, CLASSES) > bias).float()
    Y[Y.sum(1) == 0, 0] = 1.0  # every gene has at least one function
    Y[Y.sum(1) == CLASSES, -1] = 0.0
    return X, Y


proj = (torch.randn(DIM, 48) / DIM ** 0.5 * 1.5, torch.randn(48, CLASSES) / 48 ** 0.5 * 2.0)
bias = torch.linspace(-0.6, 1.4, CLASSES)
X_train, Y_train = make_yeast(2400, proj, bias)
X_test, Y_test = make_yeast(600, proj, bias)


def pairwise_sub(a, b):
    return a.unsqueeze(2) - b.unsqueeze(1)


def pairwise_and(a, b):
    return a.unsqueeze(2) & b.unsqueeze(1)


def example_losses(y_true, y_pred):
    """One normalised pairwise exp-loss per sample."""
    y_i = y_true == 1
    y_i_bar = y_true != 1
    truth_matrix = pairwise_and(y_i, y_i_bar).float()
    exp_matrix = torch.exp(-pairwise_sub(y_pred, y_pred))
    sums = (exp_matrix * truth_matrix).sum(dim=(1, 2))
    normalizers = y_i.float().sum(1) * y_i_bar.float().sum(1)
    return sums / normalizers


def bp_mll_loss(y_true, y_pred):
    results = example_losses(y_true, y_pred)
    # sum over samples
    return results.sum()


def dense(n_in, n_out):
    layer = nn.Linear(n_in, n_out)
    nn.init.xavier_uniform_(layer.weight)
    nn.init.zeros_(layer.bias)
    return layer


model = nn.Sequential(dense(DIM, 128), nn.ReLU(), dense(128, 64), nn.ReLU(), dense(64, CLASSES), nn.Sigmoid())
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
batch_size, epochs = 256, 60

for epoch in range(epochs):
    perm = torch.randperm(len(X_train))
    per_example, seen = 0.0, 0
    for i in range(0, len(X_train), batch_size):
        idx = perm[i:i + batch_size]
        y_pred = model(X_train[idx])
        loss = bp_mll_loss(Y_train[idx], y_pred)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            per_example += example_losses(Y_train[idx], y_pred).sum().item()
        seen += len(idx)
    if epoch % 10 == 0 or epoch == epochs - 1:
        print(f"epoch {epoch} loss {per_example / seen:.4f}")

with torch.no_grad():
    top = model(X_test).argmax(1)
    acc = Y_test[torch.arange(len(Y_test)), top].mean().item()
print(f"final_loss={per_example / seen:.6g} acc={acc:.4f}")
