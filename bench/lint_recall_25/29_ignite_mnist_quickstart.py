"""Quickstart-style MNIST training with PyTorch-Ignite engines and metric handlers."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from ignite.engine import Events, create_supervised_evaluator, create_supervised_trainer
from ignite.metrics import Accuracy, Loss
from torch.utils.data import DataLoader
from torchvision.datasets import MNIST
from torchvision.transforms import Compose, Normalize, ToTensor


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x)  # expect: softmax-without-dim


def get_data_loaders(train_batch_size, val_batch_size):
    tf = Compose([ToTensor(), Normalize((0.1307,), (0.3081,))])
    train_loader = DataLoader(MNIST(download=True, root=".", transform=tf, train=True),
                              batch_size=train_batch_size, shuffle=True, num_workers=2)
    val_loader = DataLoader(MNIST(download=False, root=".", transform=tf, train=False),
                            batch_size=val_batch_size, shuffle=False, num_workers=2)
    return train_loader, val_loader


def run(train_batch_size=64, val_batch_size=1000, epochs=10, lr=0.01, momentum=0.5, log_interval=10):
    train_loader, val_loader = get_data_loaders(train_batch_size, val_batch_size)
    model = Net()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=momentum)
    trainer = create_supervised_trainer(model, optimizer, F.nll_loss, device=device)
    evaluator = create_supervised_evaluator(model, metrics={"accuracy": Accuracy(), "nll": Loss(F.nll_loss)},
                                            device=device)

    @trainer.on(Events.ITERATION_COMPLETED(every=log_interval))
    def log_training_loss(engine):
        print(f"Epoch[{engine.state.epoch}] Iteration[{engine.state.iteration}] Loss: {engine.state.output:.2f}")

    @trainer.on(Events.EPOCH_COMPLETED)
    def log_validation_results(engine):
        evaluator.run(val_loader)
        metrics = evaluator.state.metrics
        print(f"Validation Epoch: {engine.state.epoch} Avg accuracy: {metrics['accuracy']:.2f} "
              f"Avg loss: {metrics['nll']:.2f}")

    trainer.run(train_loader, max_epochs=epochs)


if __name__ == "__main__":
    run()
