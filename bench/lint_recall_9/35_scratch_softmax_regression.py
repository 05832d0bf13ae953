# Source: https://github.com/d2l-ai/d2l-en/blob/master/chapter_linear-classification/softmax-regression-scratch.md
# Pitfall: softmax is written as exp(X) / exp(X).sum() with no max subtracted, then the loss takes log of the
#   picked probability; large logits overflow to inf (inf/inf = NaN) and tiny ones give log(0) = -inf.
# Reproduced in our own words, not the original code.
import torch


def softmax(X):
    X_exp = torch.exp(X)  # expect: unshifted-softmax
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition


class ScratchSoftmaxRegression:
    def __init__(self, num_inputs, num_outputs, lr=0.1, sigma=0.01):
        self.W = torch.normal(0, sigma, size=(num_inputs, num_outputs), requires_grad=True)
        self.b = torch.zeros(num_outputs, requires_grad=True)
        self.lr = lr

    def parameters(self):
        return [self.W, self.b]

    def forward(self, X):
        X = X.reshape((-1, self.W.shape[0]))
        return softmax(torch.matmul(X, self.W) + self.b)


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[list(range(len(y_hat))), y]).mean()  # expect: log-of-softmax


def fit(model, train_iter, val_iter, max_epochs=10):
    optim = torch.optim.SGD(model.parameters(), lr=model.lr)
    for epoch in range(max_epochs):
        for X, y in train_iter:
            loss = cross_entropy(model.forward(X), y)
            optim.zero_grad()
            loss.backward()
            optim.step()
        with torch.no_grad():
            correct = total = 0
            for X, y in val_iter:
                correct += (model.forward(X).argmax(1) == y).sum().item()
                total += y.numel()
        print(f"epoch {epoch + 1}: val acc {correct / total:.3f}")
