# Source: https://github.com/delip/PyTorchNLPBook/issues/28
# Pitfall: the surname MLP calls F.dropout(x, p=0.5) in forward without training=self.training, so dropout
#          stays active after classifier.eval() and every evaluation/prediction run gives different results.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SurnameMLP(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim):
        super().__init__()
        self.fc1 = nn.Linear(input_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, output_dim)

    def forward(self, x_in, apply_softmax=False):
        intermediate = F.relu(self.fc1(x_in))
        output = self.fc2(F.dropout(intermediate, p=0.5))  # expect: functional-dropout-always-on
        if apply_softmax:
            output = F.softmax(output, dim=1)
        return output


def evaluate(classifier, x, y):
    classifier.eval()
    with torch.no_grad():
        pred = classifier(x).argmax(dim=1)
    classifier.train()
    return (pred == y).float().mean().item()


if __name__ == "__main__":
    clf = SurnameMLP(input_dim=80, hidden_dim=300, output_dim=18)
    optimizer = torch.optim.Adam(clf.parameters(), lr=1e-3)
    loss_func = nn.CrossEntropyLoss()
    xs, ys = torch.rand(256, 80), torch.randint(0, 18, (256,))
    for epoch in range(10):
        clf.train()
        for i in range(0, 256, 64):
            optimizer.zero_grad()
            loss = loss_func(clf(xs[i:i + 64]), ys[i:i + 64])
            loss.backward()
            optimizer.step()
        print(epoch, evaluate(clf, xs, ys))
