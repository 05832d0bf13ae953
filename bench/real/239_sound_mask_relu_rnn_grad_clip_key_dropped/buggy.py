"""Speech-enhancement mask estimator (a ReLU recurrent network over 120 spectrogram frames of 16
bands predicts a per-band mask, MSE to the ideal ratio mask, minibatch SGD with momentum) driven
by a config dict and a small Trainer class. The config asks for gradient clipping at norm 1.0
under the key `grad_clip`, but the Trainer only looks for `clip_grad_norm` in the options it is
given, finds nothing, and trains with no clipping at all. Back-propagating through 120 steps of
the ReLU recurrence, the gradient norm grows by orders of magnitude within the first epoch;
unclipped, such a step throws the weights far away and the loss goes to inf/NaN.

Source: https://github.com/chentuochao/Sound_Bubble/issues/4 (Loss could easily be nan during training.)
Report: "The grad_clip is not passed to model parameter so error will be triggered in model.
Actually, the model is suffering from gradient exploding and loss will go to nan after about 2000
iterations." Reproduced with 3,000 synthetic noisy spectrogram sequences (a slowly varying
harmonic target plus broadband noise, mask = target / (target + noise)); nn.RNN(16, 64,
nonlinearity="relu") with identity-initialised recurrent weights, a linear-sigmoid mask head,
SGD lr 0.05 momentum 0.9, batch 32, 6 epochs. The printed loss is the mean training MSE of the last
epoch, `acc` 1 - mean absolute mask error on 300 held-out sequences.

expect: exploding-gradient
symptom: nonfinite
batch: 14
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

CONFIG = {"lr": 0.05, "momentum": 0.9, "batch_size": 32, "epochs": 6, "grad_clip": 1.0}
T, BANDS = 120, 16


def make_sequences(n):
    t = torch.arange(T).float()
    f0 = torch.rand(n, 1, 1) * 6
    drift = torch.sin(t[None, :, None] / (10 + 20 * torch.rand(n, 1, 1)))
    band = torch.arange(BANDS).float()[None, None, :]
    target = torch.relu(torch.cos((band - f0 - 3 * drift) * 1.3)) * (1 + torch.rand(n, 1, 1))
    noise = 0.6 * torch.rand(n, T, BANDS)
    mask = target / (target + noise + 1e-3)
    return torch.log1p(target + noise), mask


class MaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(BANDS, 64, nonlinearity="relu", batch_first=True)
        with torch.no_grad():
            self.rnn.weight_hh_l0.copy_(torch.eye(64))
        self.head = nn.Linear(64, BANDS)

    def forward(self, x):
        h, _ = self.rnn(x)
        return torch.sigmoid(self.head(h))


class Trainer:
    def __init__(self, model, lr, momentum, batch_size, **options):
        self.model, self.batch_size = model, batch_size
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=momentum)
        self.clip = options.get("clip_grad_norm")

    def fit(self, x, y, epochs):
        for epoch in range(epochs):
            perm, total = torch.randperm(len(x)), 0.0
            for i in range(0, len(x), self.batch_size):
                idx = perm[i:i + self.batch_size]
                loss = ((self.model(x[idx]) - y[idx]) ** 2).mean()
                self.opt.zero_grad()
                loss.backward()
                if self.clip is not None:
                    nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
                self.opt.step()
                total += loss.item() * len(idx)
            self.last_loss = total / len(x)
            print(f"epoch {epoch} mse {self.last_loss:.5f}")
        return self


train_x, train_y = make_sequences(3000)
test_x, test_y = make_sequences(300)
cfg = dict(CONFIG)
epochs = cfg.pop("epochs")
trainer = Trainer(MaskNet(), **cfg).fit(train_x, train_y, epochs)
with torch.no_grad():
    acc = 1 - (trainer.model(test_x) - test_y).abs().mean().item()
print(f"final_loss={trainer.last_loss:.6g} acc={acc:.4f}")
