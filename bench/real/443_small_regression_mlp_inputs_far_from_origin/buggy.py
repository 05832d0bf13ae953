"""Small 1-D regression fit: a fully connected network (1 input, two sigmoid hidden layers of 8 units, linear output, Xavier-initialized weights, zero biases) trained full-batch with plain gradient descent (lr 0.5) on mean squared error to fit a smooth curve from 100 noisy samples. The samples' x values lie in [40, 50] -- the raw measurement units -- far from zero: every first-layer pre-activation is tens of units large, the first sigmoid layer is saturated for every sample (outputs pinned at 0 or 1, derivative ~0), and the network can only produce a nearly constant output; the same network fits the curve when the data cloud sits near the origin.

Source: https://datascience.stackexchange.com/questions/31499/neural-network-only-converges-when-data-cloud-is-close-to-0 (Neural network only converges when data cloud is close to 0)
Report: "My problem concerns strange non-convergent behaviour of neural networks when presented with the supposedly
simple task of finding a regression function for a small training set consisting only of m = 100 data points" with
"act_func = tf.nn.sigmoid, w_initializer = tf.contrib.layers.xavier_initializer(), b_initializer =
tf.zeros_initializer(), loss_function = tf.losses.mean_squared_error, training_method =
tf.train.GradientDescentOptimizer(0.5)" -- the network converges only "when data cloud is close to 0". Reproduced
with 100 training and 200 held-out samples of a sine-shaped curve over x in [40, 50]; the fix standardizes x with the
training mean and standard deviation before it enters the network. The printed loss is the held-out MSE, `acc` the
fraction of held-out points predicted within 0.2 of the noise-free curve.

expect: data-unnormalized
symptom: final-loss-ratio 3
batch: 27
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def curve(x):
    return torch.sin(0.6 * (x - 45.0)) + 0.1 * (x - 45.0)


x_tr = 40 + 10 * torch.rand(100, 1)
y_tr = curve(x_tr) + 0.05 * torch.randn_like(x_tr)
x_te = 40 + 10 * torch.rand(200, 1)
y_te = curve(x_te)


def prepare(x):
    return x


model = nn.Sequential(nn.Linear(1, 8), nn.Sigmoid(), nn.Linear(8, 8), nn.Sigmoid(), nn.Linear(8, 1))
for m in model:
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        nn.init.zeros_(m.bias)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.MSELoss()

inputs = prepare(x_tr)
for step in range(3000):
    loss = loss_fn(model(inputs), y_tr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 500 == 0:
        print(f"step {step} train mse {loss.item():.4f}")

with torch.no_grad():
    pred = model(prepare(x_te))
    test_mse = loss_fn(pred, y_te).item()
    acc = ((pred - y_te).abs() < 0.2).float().mean().item()
print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
