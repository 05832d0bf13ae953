"""Logistic-regression probe on frozen features; keep the weights of the best validation epoch."""
import torch
import torch.nn.functional as F


class LogisticRegression(torch.nn.Module):
    def __init__(self, in_channels, class_num):
        super().__init__()
        self.fc = torch.nn.Linear(in_channels, class_num)

    def forward(self, x):
        return self.fc(x)


def fit_probe(train_feats, train_y, val_feats, val_y, epochs=100, lr=0.1):
    model = LogisticRegression(train_feats.size(1), int(train_y.max()) + 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    best_acc, best_state = -1.0, None
    for epoch in range(epochs):
        model.train()
        optimizer.zero_grad()
        loss = F.cross_entropy(model(train_feats), train_y)
        loss.backward()
        optimizer.step()

        model.eval()
        with torch.no_grad():
            acc = (model(val_feats).argmax(1) == val_y).float().mean().item()
        if acc > best_acc:
            best_acc = acc
            best_state = model.state_dict()  # expect: state-dict-not-copied
    model.load_state_dict(best_state)
    return model, best_acc
