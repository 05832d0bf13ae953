"""Parameter-server style training: trainers send inputs to a model living on the server's device."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout = nn.Dropout(0.25)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = self.dropout(torch.flatten(x, 1))
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


class ParameterServer(nn.Module):
    def __init__(self):
        super().__init__()
        self.device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
        self.model = Net().to(self.device)

    def forward(self, inp):
        inp.to(self.device)  # expect: tensor-op-result-discarded
        out = self.model(inp)
        # outputs go back to the trainer on CPU
        return out.to("cpu")

    def get_param_rrefs(self):
        return list(self.model.parameters())


class TrainerNet(nn.Module):
    def __init__(self, server):
        super().__init__()
        self.server = server

    def forward(self, x):
        return self.server(x)


def run_training_loop(server, train_loader, epochs=1):
    net = TrainerNet(server)
    optimizer = torch.optim.SGD(server.get_param_rrefs(), lr=0.03)
    for epoch in range(epochs):
        server.train()
        for i, (data, target) in enumerate(train_loader):
            optimizer.zero_grad()
            model_output = net(data)
            loss = F.nll_loss(model_output, target)
            loss.backward()
            optimizer.step()
            if i % 5 == 0:
                print(f"epoch {epoch} batch {i}: loss {loss.item():.4f}")


if __name__ == "__main__":
    loader = [(torch.randn(16, 1, 28, 28), torch.randint(0, 10, (16,))) for _ in range(10)]
    run_training_loop(ParameterServer(), loader)
