"""Small tabular classification network built from a layer list (Safe-DS style)."""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class _InternalModel(nn.Module):
    def __init__(self, input_size: int, hidden: list[int], num_classes: int):
        super().__init__()
        layers = []
        prev = input_size
        for width in hidden:
            layers += [nn.Linear(prev, width), nn.ReLU()]
            prev = width
        layers.append(nn.Linear(prev, num_classes))
        layers.append(nn.Softmax(dim=-1))  # expect: softmax-before-cross-entropy
        self._pytorch_layers = nn.Sequential(*layers)

    def forward(self, x):
        return self._pytorch_layers(x)


class ClassificationNeuralNetwork:
    def __init__(self, input_size, hidden, num_classes):
        self._model = _InternalModel(input_size, hidden, num_classes)

    def fit(self, features, labels, epoch_size=25, batch_size=32, learning_rate=1e-3):
        loader = DataLoader(TensorDataset(features.float(), labels.long()), batch_size=batch_size, shuffle=True)
        loss_fn = nn.CrossEntropyLoss()
        optimizer = torch.optim.SGD(self._model.parameters(), lr=learning_rate)
        self._model.train()
        for _ in range(epoch_size):
            for x, y in loader:
                optimizer.zero_grad()
                pred = self._model(x)
                loss = loss_fn(pred, y)
                loss.backward()
                optimizer.step()
        return self

    def predict(self, features):
        self._model.eval()
        with torch.no_grad():
            return self._model(features.float()).argmax(dim=-1)
