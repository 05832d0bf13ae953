# Source: https://github.com/sinhasam/vaal/issues/2
# Pitfall: test accuracy of a VGG16-BN task model is computed without task_model.eval():
# dropout is on and BatchNorm uses (and updates) batch statistics of the test data.
# Reproduced in our own words, not the original code.
import torch
import torchvision


class Solver:
    def __init__(self, num_classes):
        self.task_model = torchvision.models.vgg16_bn(num_classes=num_classes)
        self.optim = torch.optim.SGD(self.task_model.parameters(), lr=0.01, momentum=0.9)

    def train(self, loader):
        self.task_model.train()
        for x, y in loader:
            self.optim.zero_grad()
            loss = torch.nn.functional.cross_entropy(self.task_model(x), y)
            loss.backward()
            self.optim.step()

    def test(self, test_loader):
        total = correct = 0
        for imgs, labels in test_loader:
            with torch.no_grad():
                preds = self.task_model(imgs).argmax(1)  # expect: validation-in-train-mode
            correct += (preds == labels).sum().item()
            total += labels.size(0)
        return correct / total
