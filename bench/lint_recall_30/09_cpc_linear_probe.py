"""Linear phone classifier on top of a (possibly fine-tuned) CPC feature encoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def run_epoch(feature_maker, classifier, loader, optimizer=None):
    training = optimizer is not None
    feature_maker.train(training)
    classifier.train(training)
    total, correct, count = 0.0, 0, 0
    with torch.set_grad_enabled(training):
        for audio, label in loader:
            logits = classifier(feature_maker(audio))
            loss = F.cross_entropy(logits, label)
            if training:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            total += loss.item() * label.size(0)
            correct += (logits.argmax(1) == label).sum().item()
            count += label.size(0)
    return total / count, correct / count


def train_probe(feature_maker, n_phones, train_loader, val_loader, epochs=20, lr=2e-4):
    classifier = nn.Linear(256, n_phones)
    params = list(classifier.parameters()) + list(feature_maker.parameters())
    optimizer = torch.optim.Adam(params, lr=lr)
    best_acc, best_state = -1.0, None
    for epoch in range(epochs):
        train_loss, _ = run_epoch(feature_maker, classifier, train_loader, optimizer)
        _, val_acc = run_epoch(feature_maker, classifier, val_loader)
        if val_acc > best_acc:
            best_acc = val_acc
            best_state = feature_maker.state_dict()  # expect: state-dict-not-copied
        print(f"epoch {epoch}: train {train_loss:.3f} val acc {val_acc:.3f}")
    feature_maker.load_state_dict(best_state)
    return feature_maker, classifier
