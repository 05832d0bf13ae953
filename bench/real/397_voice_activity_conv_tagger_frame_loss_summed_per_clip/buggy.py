"""Voice-activity detector for variable-length audio clips: a 1-D conv tagger (8 filterbank features per frame -> two 5-tap conv layers with 32 channels and tanh -> one speech logit per frame) trained with plain SGD (lr 0.02, momentum 0.9) on padded batches of 16 clips, 3 epochs. Clips are 40 to 800 frames long. The per-frame binary cross-entropy is masked to the real frames and then summed over each clip (divided only by the number of clips), so a long clip contributes up to twenty times the gradient of a short one and the step size grows with the clip lengths in the batch: batches with several long clips throw the weights far off, the batch loss climbs into the thousands and the tagger ends up wildly over-confident, with a held-out cross-entropy tens to hundreds of times that of the per-frame mean version.

Source: https://github.com/karpathy/char-rnn/issues/104 (Gradient divided by sequence length)
Report: "I see that gradient in the code is not divided by sequence length ... if we train RNN by several
sequences with variable length, we need to divide each gradient(of sequence) by sequence length. right?"
-- maintainer: "Thanks @hughperkins, that's correct." Reproduced with 1,000 synthetic clips (speech
segments raise a random subset of the filterbank channels, silence is noise) whose per-frame loss is
summed over frames. The printed loss is the mean per-frame cross-entropy on 200 held-out clips, `acc`
the per-frame accuracy on them.

expect: loss-reduction
symptom: final-loss-ratio 10
batch: 24
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

MAXLEN = 800
speech_profile = torch.rand(8) * 1.5


def make_clips(n):
    lengths = torch.randint(40, MAXLEN + 1, (n,))
    X = torch.zeros(n, 8, MAXLEN)
    Y = torch.zeros(n, MAXLEN)
    mask = torch.zeros(n, MAXLEN)
    for i in range(n):
        L = int(lengths[i])
        lab = torch.zeros(L)
        pos = 0
        while pos < L:
            seg = int(torch.randint(20, 120, ()))
            lab[pos:pos + seg] = float(torch.rand(()) < 0.5)
            pos += seg
        X[i, :, :L] = torch.randn(8, L) + lab * speech_profile[:, None]
        Y[i, :L] = lab
        mask[i, :L] = 1
    return X, Y, mask


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(8, 32, 5, padding=2)
        self.c2 = nn.Conv1d(32, 32, 5, padding=2)
        self.out = nn.Conv1d(32, 1, 1)

    def forward(self, x):
        return self.out(torch.tanh(self.c2(torch.tanh(self.c1(x))))).squeeze(1)


def clip_loss(logits, y, mask):
    per_frame = F.binary_cross_entropy_with_logits(logits, y, reduction="none") * mask
    return per_frame.sum() / len(y)


X_train, Y_train, M_train = make_clips(1000)
X_test, Y_test, M_test = make_clips(200)
model = Tagger()
opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)

for epoch in range(3):
    perm = torch.randperm(len(X_train))
    for i in range(0, len(perm), 16):
        idx = perm[i:i + 16]
        loss = clip_loss(model(X_train[idx]), Y_train[idx], M_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} last_batch_loss {loss.item():.4f}")

with torch.no_grad():
    logits = model(X_test)
    per_frame = F.binary_cross_entropy_with_logits(logits, Y_test, reduction="none")
    test_loss = ((per_frame * M_test).sum() / M_test.sum()).item()
    correct = (((logits > 0).float() == Y_test).float() * M_test).sum() / M_test.sum()
print(f"final_loss={test_loss:.6g} acc={correct.item():.4f}")
