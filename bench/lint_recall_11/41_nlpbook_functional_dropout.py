"""Surname nationality classifier (MLP over one-hot character counts) with dropout."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SurnameClassifier(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim):
        super().__init__()
        self.fc1 = nn.Linear(input_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, output_dim)

    def forward(self, x_in, apply_softmax=False):
        intermediate_vector = F.relu(self.fc1(x_in))
        prediction_vector = self.fc2(F.dropout(intermediate_vector, p=0.5))  # expect: functional-dropout-always-on
        if apply_softmax:
            prediction_vector = F.softmax(prediction_vector, dim=1)
        return prediction_vector


def compute_accuracy(y_pred, y_target):
    _, y_pred_indices = y_pred.max(dim=1)
    return (y_pred_indices == y_target).float().mean().item() * 100


def run_epoch(classifier, loader, loss_func, optimizer, device, train=True):
    classifier.train(train)
    running_loss, running_acc = 0.0, 0.0
    for batch_index, batch_dict in enumerate(loader):
        x = batch_dict["x_surname"].to(device)
        y = batch_dict["y_nationality"].to(device)
        with torch.set_grad_enabled(train):
            y_pred = classifier(x)
            loss = loss_func(y_pred, y)
        if train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        running_loss += (loss.item() - running_loss) / (batch_index + 1)
        running_acc += (compute_accuracy(y_pred, y) - running_acc) / (batch_index + 1)
    return running_loss, running_acc


def predict_nationality(surname_vector, classifier, vocab):
    classifier.eval()
    with torch.no_grad():
        probs = classifier(surname_vector.unsqueeze(0), apply_softmax=True)
    prob, index = probs.max(dim=1)
    return {"nationality": vocab[index.item()], "probability": prob.item()}
