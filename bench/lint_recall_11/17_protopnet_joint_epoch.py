"""Prototype-part network: warm-up epochs, then joint training with a step LR schedule."""
import torch
import torch.nn.functional as F


def train_or_test(model, loader, optimizer=None, class_specific=True, coefs=None, device="cuda"):
    is_train = optimizer is not None
    model.train() if is_train else model.eval()
    total_ce, n_batches, n_correct, n_examples = 0.0, 0, 0, 0
    for image, label in loader:
        image, label = image.to(device), label.to(device)
        with torch.set_grad_enabled(is_train):
            output, min_distances = model(image)
            ce = F.cross_entropy(output, label)
            cluster = min_distances.min(dim=1).values.mean()
            loss = coefs["crs_ent"] * ce + coefs["clst"] * cluster
        if is_train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        n_correct += (output.argmax(dim=1) == label).sum().item()
        n_examples += label.size(0)
        total_ce += ce.item()
        n_batches += 1
    return n_correct / n_examples


def warm_only(model):
    for p in model.features.parameters():
        p.requires_grad = False
    for p in model.add_on_layers.parameters():
        p.requires_grad = True
    model.prototype_vectors.requires_grad = True


def joint(model):
    for p in model.parameters():
        p.requires_grad = True


def run(model, train_loader, test_loader, num_train_epochs=30, num_warm_epochs=5, coefs=None):
    joint_optimizer = torch.optim.Adam([
        {"params": model.features.parameters(), "lr": 1e-4, "weight_decay": 1e-3},
        {"params": model.add_on_layers.parameters(), "lr": 3e-3, "weight_decay": 1e-3},
        {"params": model.prototype_vectors, "lr": 3e-3},
    ])
    joint_lr_scheduler = torch.optim.lr_scheduler.StepLR(joint_optimizer, step_size=5, gamma=0.1)
    warm_optimizer = torch.optim.Adam([
        {"params": model.add_on_layers.parameters(), "lr": 3e-3, "weight_decay": 1e-3},
        {"params": model.prototype_vectors, "lr": 3e-3},
    ])
    for epoch in range(num_train_epochs):
        if epoch < num_warm_epochs:
            warm_only(model)
            train_or_test(model, train_loader, optimizer=warm_optimizer, coefs=coefs)
        else:
            joint(model)
            joint_lr_scheduler.step()  # expect: scheduler-before-optimizer
            train_or_test(model, train_loader, optimizer=joint_optimizer, coefs=coefs)
        accu = train_or_test(model, test_loader, optimizer=None, coefs=coefs)
        print(f"epoch {epoch}: test acc {accu:.4f}")
