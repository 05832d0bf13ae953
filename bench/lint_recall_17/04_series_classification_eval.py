"""Evaluation of a time-series classifier: collect logits, then probabilities and accuracy."""
import numpy as np
import torch
import torch.nn as nn


class Exp:
    def __init__(self, model, criterion, device):
        self.model = model
        self.criterion = criterion
        self.device = device

    def vali(self, loader):
        total_loss = []
        preds, trues = [], []
        self.model.eval()
        with torch.no_grad():
            for batch_x, label, padding_mask in loader:
                batch_x = batch_x.float().to(self.device)
                padding_mask = padding_mask.float().to(self.device)
                label = label.to(self.device)
                outputs = self.model(batch_x, padding_mask)
                loss = self.criterion(outputs, label.long().squeeze(-1))
                total_loss.append(loss.item())
                preds.append(outputs.detach())
                trues.append(label)
        preds = torch.cat(preds, 0)
        trues = torch.cat(trues, 0)
        probs = torch.nn.functional.softmax(preds)  # expect: softmax-without-dim
        predictions = torch.argmax(probs, dim=1).cpu().numpy()
        accuracy = float(np.mean(predictions == trues.flatten().cpu().numpy()))
        self.model.train()
        return float(np.average(total_loss)), accuracy


if __name__ == "__main__":
    net = nn.Sequential(nn.Flatten(), nn.Linear(96 * 7, 5))
    exp = Exp(lambda x, m: net(x * m.unsqueeze(-1)), nn.CrossEntropyLoss(), "cpu")
    data = [(torch.randn(8, 96, 7), torch.randint(0, 5, (8, 1)), torch.ones(8, 96)) for _ in range(3)]
    print(exp.vali(data))
