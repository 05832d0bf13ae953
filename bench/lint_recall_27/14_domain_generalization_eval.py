"""Hybrid domain-generalization trainer that reports test accuracy after every epoch."""
import torch
import torch.nn.functional as F


def get_test_accuracy(phi, loader, device):
    acc, total = 0, 0
    with torch.no_grad():
        for x_e, y_e in loader:
            x_e = x_e.to(device)
            y_e = y_e.to(device)
            out = phi(x_e)  # expect: validation-in-train-mode
            acc += (out.argmax(dim=1) == y_e).sum().item()
            total += y_e.size(0)
    return 100.0 * acc / max(total, 1)


def match_loss(feat, domain_ids, labels):
    loss = feat.new_zeros(())
    for cls in labels.unique():
        sel = labels == cls
        doms = domain_ids[sel].unique()
        if len(doms) < 2:
            continue
        means = torch.stack([feat[sel][domain_ids[sel] == d].mean(0) for d in doms])
        loss = loss + (means - means.mean(0, keepdim=True)).pow(2).sum(1).mean()
    return loss


def train(phi, opt, train_loader, val_loader, test_loader, epochs, device, match_weight=0.1):
    best_val, best_test = 0.0, 0.0
    for epoch in range(epochs):
        phi.train()
        penalty_sum, erm_sum = 0.0, 0.0
        for x, y, d in train_loader:
            x, y, d = x.to(device), y.to(device), d.to(device)
            opt.zero_grad()
            feat = phi.features(x)
            logits = phi.classifier(feat)
            erm = F.cross_entropy(logits, y)
            penalty = match_loss(feat, d, y)
            loss = erm + match_weight * penalty
            loss.backward()
            opt.step()
            erm_sum += erm.item()
            penalty_sum += penalty.item()
        val_acc = get_test_accuracy(phi, val_loader, device)
        test_acc = get_test_accuracy(phi, test_loader, device)
        if val_acc > best_val:
            best_val, best_test = val_acc, test_acc
        print(f"epoch {epoch} erm {erm_sum:.3f} match {penalty_sum:.3f} val {val_acc:.2f} test {test_acc:.2f}")
    return best_val, best_test
