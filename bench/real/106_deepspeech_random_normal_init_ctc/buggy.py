"""DeepSpeech-style CTC speech recogniser whose weights and biases are drawn from tf.random_normal's default N(0, 1): the clipped-ReLU layers saturate and the loss never improves.

Source: https://github.com/mozilla/DeepSpeech/issues/138 (Initializing weights and biases with stddev=0.1 seems to ease convergence)
Report: "initializing weights and biases with stddev=0.1 eliminates the CTC 'path not found'
warnings and makes us successfully overfit the data ... FWIW, on my machine, using stddev=0.1
is the only way I can overfit the data. Without it, the loss is constantly infinite and we
never improve." (the graph then built every weight and bias with tf.random_normal, stddev 1.0).
Reproduced with the model's layout in torch (three dense layers on a window of feature frames
with ReLU clipped at 20, a recurrent layer, a fourth clipped dense layer, per-frame logits, CTC,
Adam lr 0.001) and every weight and bias initialised N(0, 1), on synthetic feature frames of
spoken 2-10-letter words; `acc` is the share of held-out utterances decoded exactly (greedy).

expect: bad-init
symptom: loss-above 50
batch: 5
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

N_FEAT, N_CONTEXT, N_CHAR, RELU_CLIP = 26, 2, 12, 20.0     # 12 letters + blank (index 0)
N_HIDDEN = 128
STDDEV = 1.0                                               # tf.random_normal default
templates = torch.randn(N_CHAR, N_FEAT)


def utterance():
    n = int(torch.randint(2, 11, (1,)))
    chars = torch.randint(0, N_CHAR, (n,))
    frames = [templates[c].expand(int(torch.randint(4, 8, (1,))), N_FEAT) for c in chars.tolist()]
    x = torch.cat(frames) + 0.5 * torch.randn(sum(len(f) for f in frames), N_FEAT)
    return x, chars + 1


def collate(items):
    xs, ys = zip(*items)
    x = nn.utils.rnn.pad_sequence(xs, batch_first=True)
    return x, torch.tensor([len(a) for a in xs]), torch.cat(ys), torch.tensor([len(b) for b in ys])


class BiRNN(nn.Module):
    def __init__(self):
        super().__init__()
        n_input = N_FEAT * (2 * N_CONTEXT + 1)
        self.h1, self.h2, self.h3 = nn.Linear(n_input, N_HIDDEN), nn.Linear(N_HIDDEN, N_HIDDEN), nn.Linear(N_HIDDEN, N_HIDDEN)
        self.rnn = nn.GRU(N_HIDDEN, N_HIDDEN, batch_first=True)
        self.h5 = nn.Linear(N_HIDDEN, N_HIDDEN)
        self.h6 = nn.Linear(N_HIDDEN, N_CHAR + 1)
        for p in self.parameters():
            nn.init.normal_(p, 0.0, STDDEV)

    def forward(self, x):
        x = F.pad(x, (0, 0, N_CONTEXT, N_CONTEXT)).unfold(1, 2 * N_CONTEXT + 1, 1).flatten(2)
        clipped_relu = lambda t: torch.clamp(F.relu(t), max=RELU_CLIP)
        h = clipped_relu(self.h3(clipped_relu(self.h2(clipped_relu(self.h1(x))))))
        h, _ = self.rnn(h)
        return F.log_softmax(self.h6(clipped_relu(self.h5(h))), -1)


train = [utterance() for _ in range(1000)]
val = [utterance() for _ in range(200)]
model = BiRNN()
ctc = nn.CTCLoss(blank=0, reduction="none")
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
losses = []
for epoch in range(3):
    order = torch.randperm(len(train)).tolist()
    for i in range(0, len(order), 16):
        x, x_len, y, y_len = collate([train[j] for j in order[i:i + 16]])
        loss = ctc(model(x).transpose(0, 1), y, x_len, y_len).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-63:]) / 63:.4f}")

with torch.no_grad():
    correct = 0
    for x, y in val:
        best = model(x.unsqueeze(0))[0].argmax(-1)
        dec = torch.unique_consecutive(best)
        correct += int(torch.equal(dec[dec != 0], y))
print(f"final_loss={sum(losses[-63:]) / 63:.6g} acc={correct / len(val):.4f}")
