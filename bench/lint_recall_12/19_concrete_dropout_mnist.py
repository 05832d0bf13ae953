import torch
import torch.nn as nn
import torch.nn.functional as F


class ConcreteDropout(nn.Module):
    def __init__(self, init_p=0.1):
        super().__init__()
        self.p_logit = nn.Parameter(torch.logit(torch.tensor([init_p])))

    def forward(self, x, layer):
        p = torch.sigmoid(self.p_logit)
        eps = 1e-7
        u = torch.rand_like(x)
        logit_p = F.logsigmoid(self.p_logit) - F.logsigmoid(-self.p_logit)
        drop = torch.sigmoid((logit_p + torch.log(u + eps) - torch.log(1 - u + eps)) / 0.1)
        return layer(x * (1 - drop) / (1 - p + eps))


class MLPConcreteDropout(nn.Module):
    def __init__(self, n_hidden=512):
        super().__init__()
        self.fc1 = nn.Linear(784, n_hidden)
        self.fc2 = nn.Linear(n_hidden, 10)
        self.cd1 = ConcreteDropout()
        self.cd2 = ConcreteDropout()
        self.relu = nn.ReLU()
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        x = x.view(-1, 784)
        x = self.cd1(x, nn.Sequential(self.fc1, self.relu))
        x = self.cd2(x, self.fc2)
        return self.softmax(x)  # expect: softmax-before-cross-entropy


def train(model, loader, optimiser, device):
    model.train()
    total = 0.0
    for data, labels in loader:
        data, labels = data.to(device), labels.to(device)
        optimiser.zero_grad()
        outputs = model(data)
        loss = F.cross_entropy(outputs, labels)
        total += loss.item() * data.size(0)
        loss.backward()
        optimiser.step()
    return total / len(loader.dataset)
