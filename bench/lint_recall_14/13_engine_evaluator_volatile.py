"""Minimal trainer/evaluator engine helpers (pre-0.4 style batch preparation)."""
import torch
import torch.nn.functional as F
from torch.autograd import Variable


def _prepare_batch(batch, cuda, volatile=False):
    x, y = batch
    if cuda:
        x, y = x.cuda(), y.cuda()
    return Variable(x, volatile=volatile), Variable(y, volatile=volatile)


def create_supervised_trainer(model, optimizer, loss_fn, cuda=False):
    def _update(batch):
        model.train()
        optimizer.zero_grad()
        x, y = _prepare_batch(batch, cuda)
        y_pred = model(x)
        loss = loss_fn(y_pred, y)
        loss.backward()
        optimizer.step()
        return loss.item()
    return _update


def create_supervised_evaluator(model, cuda=False):
    def _inference(batch):
        model.eval()
        x, y = _prepare_batch(batch, cuda, volatile=True)  # expect: volatile-variable
        y_pred = model(x)
        return y_pred, y
    return _inference


def run(model, train_loader, val_loader, epochs=10, cuda=True):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.5)
    step = create_supervised_trainer(model, optimizer, F.nll_loss, cuda)
    infer = create_supervised_evaluator(model, cuda)
    for epoch in range(epochs):
        for batch in train_loader:
            step(batch)
        correct, total = 0, 0
        for batch in val_loader:
            y_pred, y = infer(batch)
            correct += (y_pred.argmax(dim=1) == y).sum().item()
            total += y.size(0)
        print(f"epoch {epoch}: val acc {correct / total:.4f}")
