"""Product-review sentiment classifier (negative / neutral / positive) on bag-of-words counts: a two-layer MLP whose last layer is followed by a softmax, trained with a loss that expects raw logits (`F.cross_entropy`, i.e. TensorFlow's softmax_cross_entropy_with_logits) via Adam on full-batch epochs. The softmax is therefore applied twice: the scores the loss sees are probabilities squeezed into [0, 1], so even a perfectly confident network cannot push the true class above e/(e+2) and the cross-entropy is floored near 0.55, while the gradients fade as the inner softmax saturates -- the loss stalls far above what the same network reaches.

Source: https://github.com/tflearn/tflearn/pull/562 (Double application of softmax)
Report: "I think calling the softmax on the last layer and then using loss =
tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(net, Y)) results in two applications of softmax"
-- the maintainer: "Hi, that is right! Thanks for fixing that." Reproduced with 6,000 synthetic reviews
(counts over a 300-word vocabulary; each class has its own cue words, 12% of the tokens, on top of shared background words),
a 300-64-3 MLP, Adam lr 2e-3, 100 full-batch steps. The printed loss is the validation loss as the
training code computes it, on 1,500 held-out reviews; `acc` is the validation accuracy.

expect: loss-mismatch
symptom: loss-above 0.5
batch: 20
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

VOCAB, C = 300, 3
background = torch.softmax(torch.randn(VOCAB), 0)
cues = torch.zeros(C, VOCAB)
for c in range(C):
    cues[c, torch.randperm(VOCAB)[:15]] = 1.0


def reviews(n):
    y = torch.randint(C, (n,))
    probs = 0.88 * background + 0.12 * cues[y] / cues[y].sum(1, keepdim=True)
    counts = torch.stack([torch.bincount(torch.multinomial(p, 40, replacement=True), minlength=VOCAB) for p in probs])
    return torch.log1p(counts.float()), y


X_train, Y_train = reviews(6000)
X_val, Y_val = reviews(1500)


class SentimentNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(VOCAB, 64)
        self.out = nn.Linear(64, C)

    def forward(self, x):
        return F.softmax(self.out(F.relu(self.hidden(x))), dim=1)


model = SentimentNet()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for step in range(100):
    loss = F.cross_entropy(model(X_train), Y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        with torch.no_grad():
            net = model(X_val)
            val_loss = F.cross_entropy(net, Y_val).item()
            val_acc = (net.argmax(1) == Y_val).float().mean().item()
        print(f"step {step} train {loss.item():.4f} val {val_loss:.4f} acc {val_acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")
