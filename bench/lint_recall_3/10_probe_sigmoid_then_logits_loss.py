# Source: https://github.com/AngelaZZZ-611/reasoning_models_probing/issues/1
# Pitfall: The probe's output is passed through torch.sigmoid before a BCEWithLogitsLoss criterion that
# already contains the sigmoid, so the loss sees squashed values and the gradient is much weaker.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def train_probe(hidden_states, correct, pos_weight, epochs=20, lr=1e-3, device="cuda"):
    probe = nn.Sequential(nn.Linear(hidden_states.shape[1], 256), nn.ReLU(), nn.Linear(256, 1)).to(device)
    criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([pos_weight], device=device))
    optimizer = torch.optim.Adam(probe.parameters(), lr=lr)
    loader = DataLoader(TensorDataset(hidden_states, correct.float()), batch_size=64, shuffle=True)
    for epoch in range(epochs):
        probe.train()
        running = 0.0
        for feats, labels in loader:
            feats, labels = feats.to(device), labels.to(device)
            optimizer.zero_grad()
            scores = torch.sigmoid(probe(feats)).squeeze(-1)
            loss = criterion(scores, labels)  # expect: sigmoid-before-bce-with-logits
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: {running / len(loader):.4f}")
    return probe
