"""ResNet-50 ImageNet training with Horovod; per-epoch averaged metrics."""
import horovod.torch as hvd
import torch
import torch.nn.functional as F


class Metric:
    def __init__(self, name):
        self.name = name
        self.sum = torch.tensor(0.0)
        self.n = torch.tensor(0.0)

    def update(self, val):
        self.sum += hvd.allreduce(val.cpu(), name=self.name)
        self.n += 1

    @property
    def avg(self):
        return self.sum / self.n


def accuracy(output, target):
    pred = output.max(1, keepdim=True)[1]
    return pred.eq(target.view_as(pred)).float().mean()


def train_one_epoch(model, optimizer, train_loader, epoch):
    model.train()
    train_loss = Metric("train_loss")
    train_accuracy = Metric("train_accuracy")
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.cuda(), target.cuda()
        optimizer.zero_grad()
        output = model(data)
        loss = F.cross_entropy(output, target)
        loss.backward()
        optimizer.step()
        train_loss.update(loss)  # expect: running-loss-keeps-graph
        train_accuracy.update(accuracy(output.detach(), target))
    if hvd.rank() == 0:
        print(f"epoch {epoch}: loss {train_loss.avg.item():.4f} acc {train_accuracy.avg.item():.4f}")
