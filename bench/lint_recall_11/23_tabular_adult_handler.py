"""Income classifier on the Adult census table, used as the target model of a privacy audit."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class AdultNet(nn.Module):
    def __init__(self, input_size, hidden_size=64):
        super().__init__()
        self.fc1 = nn.Linear(input_size, hidden_size)
        self.fc2 = nn.Linear(hidden_size, hidden_size)
        self.fc3 = nn.Linear(hidden_size, 1)
        self.relu = nn.ReLU()
        self.sigmoid = nn.Sigmoid()

    def forward(self, x):
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.sigmoid(self.fc3(x))


class AdultInputHandler:
    def __init__(self, target_model, population_x, population_y):
        self.target_model = target_model
        self.dataset = TensorDataset(population_x.float(), population_y.float())

    def get_criterion(self):
        return nn.BCEWithLogitsLoss()

    def get_optimizer(self, model):
        return torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def train(self, indices, model, epochs=10, device="cpu"):
        loader = DataLoader(torch.utils.data.Subset(self.dataset, indices), batch_size=128, shuffle=True)
        criterion = self.get_criterion()
        optimizer = self.get_optimizer(model)
        model.to(device)
        for epoch in range(epochs):
            model.train()
            train_loss, train_acc = 0.0, 0
            for inputs, labels in loader:
                inputs, labels = inputs.to(device), labels.to(device)
                optimizer.zero_grad()
                outputs = model(inputs)
                loss = criterion(outputs.squeeze(dim=1), labels)  # expect: sigmoid-before-bce-with-logits
                loss.backward()
                optimizer.step()
                train_acc += ((outputs.squeeze(dim=1) > 0.5).float() == labels).sum().item()
                train_loss += loss.item()
            print(f"epoch {epoch}: loss {train_loss / len(loader):.4f} acc {train_acc / len(indices):.4f}")
        return model
