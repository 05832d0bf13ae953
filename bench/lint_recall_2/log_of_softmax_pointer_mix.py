# Source: https://github.com/pytorch/pytorch/issues/1620
# Pitfall: The loss takes torch.log of an nn.Softmax output and feeds it to NLLLoss; when a probability underflows to 0 the log is -inf and the gradients become NaN (nn.LogSoftmax does not). The Softmax module is also built without dim.
# Reproduced in our own words, not the original code.
import torch
from torch import nn, optim

sm = nn.Softmax()  # expect: softmax-without-dim
crit = nn.NLLLoss()


def train_pointer_scores(features, targets, n_steps=1000):
    scorer = nn.Linear(features.size(1), 3, bias=False)
    optimizer = optim.SGD(scorer.parameters(), lr=0.01)
    for _ in range(n_steps):
        optimizer.zero_grad()
        loss = crit(torch.log(sm(scorer(features))), targets)  # expect: log-of-softmax
        loss.backward()
        optimizer.step()
    return scorer


if __name__ == "__main__":
    data = torch.tensor([[0.0, 50.0, -50.0]])
    labels = torch.tensor([1])
    train_pointer_scores(data, labels)
