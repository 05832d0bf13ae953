"""Quality-score regressor written with hand-made weight tensors (43 standardized sensor features plus a bias column, one hidden layer of 20 sigmoid units, one output unit) trained by minibatch gradient descent to predict an inspection score between 0 and 100. The output unit keeps the sigmoid of the hidden layer, so the network can only ever produce values in (0, 1): after a few updates its pre-activation is driven far into the positive tail chasing targets of 40-90, the output sits at 1.0 for every input, its derivative out*(1-out) is 0 and the error can no longer reach any weight -- the squared error stays in the thousands.

Source: http://stackoverflow.com/questions/14982358/backpropagation-algorithm-matlab-output-values-are-saturating-to-1 (Backpropagation algorithm (Matlab): output values are saturating to 1)
Report: "My network takes input/feature vectors of length 43, has 20 nodes in the hidden layer ... and has a single
output node. I want to train my network to take the 43 features and output a single value between 0 and 100. The
input data was normalized to zero mean and unit standard deviation ... OutputLayer = sigmoidVector(WeightMatrixJK' *
HiddenLayer)" and the printed outputs saturate to 1. Reproduced with 3,000 synthetic samples whose score is a
smooth nonlinear function of the 43 features (range roughly 10-95), the 43-20-1 network with a sigmoid output,
plain gradient descent on minibatches of 32 sliced by hand, lr 0.01, 30 epochs. The printed loss is the held-out
MSE; `acc` is the share of held-out predictions within 10 points of the true score.

expect: saturated-activation
symptom: loss-above 500
batch: 26
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_FEAT, N_HID, LR, EPOCHS, BS = 43, 20, 0.01, 30, 32
proj = torch.randn(N_FEAT, 3) / N_FEAT ** 0.5


def make(n):
    x = torch.randn(n, N_FEAT)
    z = x @ proj
    score = 52 + 22 * torch.tanh(z[:, 0]) + 12 * torch.sin(z[:, 1]) + 8 * z[:, 2] + 2 * torch.randn(n)
    return torch.cat([x, torch.ones(n, 1)], 1), score.clamp(0, 100).unsqueeze(1)


def output_activation(a):
    return torch.sigmoid(a)


X, y = make(3000)
X_te, y_te = make(1000)
W_ij = (torch.randn(N_FEAT + 1, N_HID) * 0.1).requires_grad_()
W_jk = (torch.randn(N_HID + 1, 1) * 0.1).requires_grad_()


def forward(x):
    hidden = torch.sigmoid(x @ W_ij)
    hidden = torch.cat([hidden, torch.ones(len(x), 1)], 1)
    return output_activation(hidden @ W_jk)


for epoch in range(EPOCHS):
    perm = torch.randperm(len(X))
    total = 0.0
    for i in range(0, len(X), BS):
        idx = perm[i:i + BS]
        out = forward(X[idx])
        loss = ((out - y[idx]) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            for w in (W_ij, W_jk):
                w -= LR * w.grad
                w.grad.zero_()
        total += loss.item() * len(idx)
    if epoch % 5 == 0:
        print(f"epoch {epoch} train mse {total / len(X):.2f} sample out {out[:3, 0].tolist()}")

with torch.no_grad():
    pred = forward(X_te)
    mse = ((pred - y_te) ** 2).mean().item()
    within = ((pred - y_te).abs() < 10).float().mean().item()
print(f"final_loss={mse:.6g} acc={within:.4f}")
