# Source: https://github.com/huggingface/torchMoji/issues/21
# Pitfall: The model returns outputs.data (detached), so the fine-tuning loss has no grad_fn; the script
# "fixes" the resulting error by re-wrapping the loss in Variable(..., requires_grad=True) and nothing trains.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.autograd import Variable


class EmojiClassifier(nn.Module):
    def __init__(self, encoder, hidden, n_classes, return_tensor=True):
        super().__init__()
        self.encoder = encoder
        self.out = nn.Linear(hidden, n_classes)
        self.return_tensor = return_tensor

    def forward(self, tokens):
        outputs = self.out(self.encoder(tokens))
        if self.return_tensor:
            outputs = outputs.data
        return outputs


def finetune_last(model, loader, epochs, lr=1e-3, device="cuda"):
    loss_op = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=lr)
    for epoch in range(epochs):
        model.train()
        for tokens, labels in loader:
            optimizer.zero_grad()
            logits = model(tokens.to(device)).squeeze(-1)
            loss = loss_op(logits, labels.float().to(device))
            loss = Variable(loss, requires_grad=True)  # expect: backward-without-graph
            loss.backward()
            optimizer.step()
    return model
