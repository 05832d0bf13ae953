# Source: https://github.com/NVIDIA/VariantWorks/pull/134
# Pitfall: the variant-calling GRU applies softmax at the end of forward(), and the training loss is
#   CrossEntropyLoss, so softmax is applied twice and the outputs passed to the loss are over-smoothed.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class PileupGRU(nn.Module):
    def __init__(self, num_input_feats=10, hidden=128, num_layers=2, num_output_logits=5, dropout=0.1):
        super().__init__()
        self.gru = nn.GRU(num_input_feats, hidden, num_layers=num_layers, batch_first=True,
                          bidirectional=True, dropout=dropout)
        self.classifier = nn.Linear(2 * hidden, num_output_logits)
        self.output_activation = nn.Softmax(dim=2)

    def forward(self, encoding):
        encoding, _ = self.gru(encoding)
        encoding = self.classifier(encoding)
        encoding = self.output_activation(encoding)  # expect: softmax-before-cross-entropy
        return encoding


class ConsensusTrainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.loss_fn = nn.CrossEntropyLoss()
        self.opt = torch.optim.AdamW(model.parameters(), lr=lr)

    def step(self, pileups, labels):
        self.model.train()
        out = self.model(pileups)  # batch x positions x classes
        loss = self.loss_fn(out.permute(0, 2, 1), labels)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        correct = total = 0
        for pileups, labels in loader:
            pred = self.model(pileups).argmax(-1)
            correct += (pred == labels).sum().item()
            total += labels.numel()
        self.model.train()
        return correct / max(total, 1)
