"""CIFAR-10 LeNet training script with TensorBoard logging and validation every two epochs."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader
from torch.utils.tensorboard import SummaryWriter


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.bn1 = nn.BatchNorm2d(6)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.bn2 = nn.BatchNorm2d(16)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.drop = nn.Dropout(0.3)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        x = x.view(x.size(0), -1)
        x = self.drop(F.relu(self.fc1(x)))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def main(train_data, valid_data, max_epoch=100, lr_init=0.001, log_dir="runs/lenet"):
    train_loader = DataLoader(train_data, batch_size=16, shuffle=True)
    valid_loader = DataLoader(valid_data, batch_size=16)
    writer = SummaryWriter(log_dir=log_dir)
    net = Net()
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=lr_init, momentum=0.9, dampening=0.1)
    scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=50, gamma=0.1)

    for epoch in range(max_epoch):
        loss_sigma, correct, total = 0.0, 0.0, 0.0
        for i, (inputs, labels) in enumerate(train_loader):
            optimizer.zero_grad()
            outputs = net(inputs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()
            predicted = outputs.detach().argmax(dim=1)
            total += labels.size(0)
            correct += (predicted == labels).sum().item()
            loss_sigma += loss.item()
            if i % 10 == 9:
                print(f"Epoch {epoch + 1} Iter {i + 1} Loss {loss_sigma / 10:.4f} Acc {correct / total:.2%}")
                writer.add_scalar("Loss_group/train_loss", loss_sigma / 10, epoch)
                loss_sigma = 0.0
        scheduler.step()

        if epoch % 2 == 0:
            loss_sigma = 0.0
            conf_mat = np.zeros([10, 10])
            net.eval()  # expect: train-mode-not-restored
            with torch.no_grad():
                for images, labels in valid_loader:
                    outputs = net(images)
                    loss_sigma += criterion(outputs, labels).item()
                    predicted = outputs.argmax(dim=1)
                    for j in range(len(labels)):
                        conf_mat[labels[j].item(), predicted[j].item()] += 1.0
            print(f"{'Valid'} set Accuracy: {conf_mat.trace() / conf_mat.sum():.2%}")
            writer.add_scalars("Loss_group", {"valid_loss": loss_sigma / len(valid_loader)}, epoch)
    writer.close()
    torch.save(net.state_dict(), "net_params.pkl")
