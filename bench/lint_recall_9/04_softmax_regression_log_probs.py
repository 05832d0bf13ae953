# Source: https://github.com/EEDK/2021-inu-Ai/blob/HEAD/main.py
# Pitfall: the cost is built as one_hot * -torch.log(F.softmax(z)) instead of F.log_softmax / cross_entropy;
#   once a class probability underflows to 0 the log is -inf and the loss and gradients turn NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(7)


class SoftmaxRegression(nn.Module):
    def __init__(self, n_features, n_classes):
        super().__init__()
        self.linear = nn.Linear(n_features, n_classes)

    def forward(self, x):
        return self.linear(x)


def fit(x_train, y_train, n_classes, epochs=1000):
    model = SoftmaxRegression(x_train.size(1), n_classes)
    optimizer = optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs + 1):
        scores = model(x_train)
        hypothesis = F.softmax(scores, dim=1)
        target = torch.zeros_like(hypothesis)
        target.scatter_(1, y_train.unsqueeze(1), 1)
        cost = (target * -torch.log(hypothesis)).sum(dim=1).mean()  # expect: log-of-softmax
        optimizer.zero_grad()
        cost.backward()
        optimizer.step()
        if epoch % 100 == 0:
            print("epoch {:4d} cost {:.6f}".format(epoch, cost.item()))
    return model
