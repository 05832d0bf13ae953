"""Clinical gait classifier -- fixed as in the merged commit: the permutation is applied to the
trimmed label matrices that the training uses (nothing else changed).

Source: https://github.com/sebastian-lapuschkin/explaining-deep-clinical-gait-classification/pull/2 (found the bug breaking predictions.)
Report: "wrong permutation of labels." After a refactor the models stopped learning (the
previous commit: "something is wonky though! svm does not train! data?"); the fixing commit
"aha! this should be it. permuted the wrong label matrix." changes Y_Injury =
Y_Injury[Permutation] / Y_Subject = Y_Subject[Permutation] to permute Y_Injury_trimmed /
Y_Subject_trimmed, the matrices the training actually uses. Reproduced with the script's data
flow (X_GRF_AV of N x channels x time, one-hot Y_Injury and Y_Subject, label matrices trimmed to
the classes that occur, create_index_splits grouping each subject's trials into one of 10 folds
and returning the Permutation, X and labels permuted to match the splits, N x time x channel
transpose, a "Type A" CNN sliding over time with all channels followed by a fully connected
layer, Adam) on synthetic 6-channel, 101-sample GRF curves of 5 injury classes (healthy, hip,
knee, ankle, calcaneus) from 200 subjects; trained on 9 folds, `acc` is the accuracy on the
held-out fold.

expect: label-misaligned
symptom: acc-below 0.4
batch: 6
"""
import argparse

import numpy
import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
numpy.random.seed(args.seed)
torch.set_num_threads(1)

N_SUBJECTS, TRIALS, CHANNELS, T, N_INJURY = 200, 8, 6, 101, 5
t = numpy.linspace(0, 1, T)
injury_profile = numpy.random.randn(N_INJURY, CHANNELS, 4)


def grf_curve(injury, rng_subject):
    base = numpy.stack([numpy.sin(numpy.pi * t) * (1 + 0.2 * c) for c in range(CHANNELS)])
    coef = injury_profile[injury] + 0.3 * rng_subject
    bumps = sum(coef[:, k:k + 1] * numpy.exp(-((t - (0.2 + 0.2 * k)) ** 2) / 0.005) for k in range(4))
    return base + 0.25 * bumps


# ---- load data (one row per trial), one-hot label matrices with an unused injury column ----
X, inj, subj = [], [], []
for s in range(N_SUBJECTS):
    injury = s % N_INJURY
    rng_subject = numpy.random.randn(CHANNELS, 4)
    for _ in range(TRIALS):
        X.append(grf_curve(injury, rng_subject) + 0.15 * numpy.random.randn(CHANNELS, T))
        inj.append(injury)
        subj.append(s)
X_GRF_AV = numpy.array(X, dtype=numpy.float32)
Y_Injury = numpy.eye(N_INJURY + 1)[inj]                     # last column: "other", never used
Y_Subject = numpy.eye(N_SUBJECTS)[subj]
Y_Injury_trimmed = Y_Injury[:, Y_Injury.sum(0) > 0]
Y_Subject_trimmed = Y_Subject[:, Y_Subject.sum(0) > 0]


def create_index_splits(Y_Subject, Y_Injury, splits=10):
    subjects = numpy.random.permutation(Y_Subject.shape[1])
    SubjectIndexSplits = [subjects[i::splits] for i in range(splits)]
    subject_of = Y_Subject.argmax(1)
    Permutation = numpy.concatenate([numpy.nonzero(numpy.isin(subject_of, s))[0] for s in SubjectIndexSplits])
    # indices into the permuted data, one list per split
    sizes = [numpy.isin(subject_of, s).sum() for s in SubjectIndexSplits]
    bounds = numpy.cumsum([0] + sizes)
    InjuryIndexSplits = [numpy.arange(bounds[i], bounds[i + 1]) for i in range(splits)]
    return SubjectIndexSplits, InjuryIndexSplits, Permutation


SubjectIndexSplits, InjuryIndexSplits, Permutation = create_index_splits(Y_Subject_trimmed, Y_Injury_trimmed)

# apply the permutation to the given data for the inputs and labels to match the splits again
X_GRF_AV = X_GRF_AV[Permutation, ...]
Y_Injury_trimmed = Y_Injury_trimmed[Permutation, ...]
Y_Subject_trimmed = Y_Subject_trimmed[Permutation, ...]

# transposing axes, to obtain N x time x channel axis ordering
X_GRF_AV = numpy.transpose(X_GRF_AV, [0, 2, 1])

X_all = torch.tensor(X_GRF_AV)
Y_all = torch.tensor(Y_Injury_trimmed.argmax(1))
test_idx = torch.tensor(InjuryIndexSplits[0])
train_idx = torch.tensor(numpy.concatenate(InjuryIndexSplits[1:]))


class CnnA(nn.Module):
    """Type A CNN: filters span ALL data channels and slide over the time axis, then one FC layer."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 32, (6, CHANNELS), stride=(3, 1))
        self.fc = nn.Linear(32 * ((T - 6) // 3 + 1), Y_Injury_trimmed.shape[1])

    def forward(self, x):
        h = F.relu(self.conv(x.unsqueeze(1))).flatten(1)
        return self.fc(h)


model = CnnA()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(30):
    model.train()
    perm = train_idx[torch.randperm(len(train_idx))]
    for i in range(0, len(perm), 32):
        idx = perm[i:i + 32]
        loss = F.cross_entropy(model(X_all[idx]), Y_all[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        train_loss = F.cross_entropy(model(X_all[train_idx]), Y_all[train_idx]).item()
        acc = (model(X_all[test_idx]).argmax(1) == Y_all[test_idx]).float().mean().item()
    if epoch % 5 == 4:
        print(f"epoch {epoch} train loss {train_loss:.4f} test accuracy {acc:.4f}")
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")
