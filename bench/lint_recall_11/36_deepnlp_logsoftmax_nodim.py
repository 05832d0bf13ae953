"""Word-window named-entity classifier (tutorial notebook style): window MLP and training loop."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class WindowClassifier(nn.Module):
    def __init__(self, vocab_size, embedding_size, window_size, hidden_size, output_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embedding_size)
        self.h_layer1 = nn.Linear(embedding_size * (window_size * 2 + 1), hidden_size)
        self.h_layer2 = nn.Linear(hidden_size, hidden_size)
        self.o_layer = nn.Linear(hidden_size, output_size)
        self.relu = nn.ReLU()
        self.dropout = nn.Dropout(0.3)

    def forward(self, inputs):
        embeds = self.embed(inputs)
        concated = embeds.view(-1, embeds.size(1) * embeds.size(2))
        h0 = self.dropout(self.relu(self.h_layer1(concated)))
        h1 = self.dropout(self.relu(self.h_layer2(h0)))
        out = self.o_layer(h1)
        return F.log_softmax(out)  # expect: softmax-before-cross-entropy, softmax-without-dim


def train(model, train_data, batch_size=128, epochs=3, lr=1e-3, device="cpu"):
    model.to(device)
    loss_function = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        random.shuffle(train_data)
        losses = []
        model.train()
        for i in range(0, len(train_data), batch_size):
            batch = train_data[i:i + batch_size]
            inputs = torch.stack([w for w, _ in batch]).to(device)
            targets = torch.tensor([t for _, t in batch], device=device)
            model.zero_grad()
            preds = model(inputs)
            loss = loss_function(preds, targets)
            losses.append(loss.item())
            loss.backward()
            optimizer.step()
        print(f"[{epoch}/{epochs}] mean_loss : {sum(losses) / len(losses):0.2f}")
