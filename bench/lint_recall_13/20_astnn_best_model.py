"""AST-based code classifier: keep the best model seen on the validation split."""
import torch
import torch.nn.functional as F


def evaluate(model, batches):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for inputs, labels in batches:
            pred = model(inputs).argmax(dim=1)
            correct += (pred == labels).sum().item()
            total += labels.numel()
    model.train()
    return correct / max(total, 1)


def train(model, train_batches, val_batches, epochs=15, lr=2e-3):
    optimizer = torch.optim.Adamax(model.parameters(), lr=lr)
    best_acc = 0.0
    best_model = model.state_dict()
    for epoch in range(epochs):
        model.train()
        total_loss = 0.0
        for inputs, labels in train_batches:
            optimizer.zero_grad()
            output = model(inputs)
            loss = F.cross_entropy(output, labels)
            loss.backward()
            optimizer.step()
            total_loss += loss.item()
        val_acc = evaluate(model, val_batches)
        if val_acc > best_acc:
            best_acc = val_acc
            best_model = model.state_dict()  # expect: state-dict-not-copied
        print(f"epoch {epoch} loss {total_loss:.3f} val_acc {val_acc:.4f}")
    model.load_state_dict(best_model)
    return model
