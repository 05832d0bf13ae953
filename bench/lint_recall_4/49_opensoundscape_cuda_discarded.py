# Source: https://github.com/kitzeslab/opensoundscape/pull/201
# Pitfall: the training helper calls X.cuda() as a statement, but Tensor.cuda() returns a copy,
#   so the batch stays on the CPU while the model is on the GPU; the fix is X = X.cuda().
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def train(model, train_loader, epochs, lr=1e-3, use_cuda=True):
    if use_cuda and torch.cuda.is_available():
        model.cuda()
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for epoch in range(epochs):
        model.train()
        for X, y in train_loader:
            if use_cuda and torch.cuda.is_available():
                X.cuda()  # expect: tensor-op-result-discarded
                y = y.cuda()
            optimizer.zero_grad()
            logits = model(X)
            loss = criterion(logits, y.float())
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    return model


def predict(model, loader, use_cuda=True):
    model.eval()
    outputs = []
    with torch.no_grad():
        for X, _ in loader:
            if use_cuda and torch.cuda.is_available():
                X = X.cuda()
            outputs.append(torch.sigmoid(model(X)).cpu())
    return torch.cat(outputs)
