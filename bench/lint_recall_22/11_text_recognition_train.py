import torch
from torch.optim.lr_scheduler import OneCycleLR
from torch.utils.data import DataLoader


def fit_one_epoch(model, train_loader, batch_transforms, optimizer, scheduler, device):
    model.train()
    running = 0.0
    for step, (images, targets) in enumerate(train_loader):
        images = images.to(device)
        images = batch_transforms(images)
        train_loss = model(images, targets)["loss"]

        optimizer.zero_grad()
        train_loss.backward()
        optimizer.step()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5)  # expect: clip-after-step
        scheduler.step()

        running += train_loss.item()
        if step % 50 == 0:
            print(f"step {step}: training loss {train_loss.item():.6f}")
    return running / max(len(train_loader), 1)


@torch.no_grad()
def evaluate(model, val_loader, batch_transforms, val_metric, device):
    model.eval()
    val_metric.reset()
    val_loss, batch_cnt = 0.0, 0
    for images, targets in val_loader:
        images = batch_transforms(images.to(device))
        out = model(images, targets, return_preds=True)
        words = [w for w, _ in out["preds"]]
        val_metric.update(targets, words)
        val_loss += out["loss"].item()
        batch_cnt += 1
    return val_loss / max(batch_cnt, 1), val_metric.summary()


def main(model, train_set, val_set, batch_transforms, val_metric, epochs=10, lr=1e-3):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = model.to(device)
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=8, pin_memory=True)
    val_loader = DataLoader(val_set, batch_size=64, shuffle=False, num_workers=8, pin_memory=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=0)
    scheduler = OneCycleLR(optimizer, lr, epochs * len(train_loader))
    best = float("inf")
    for epoch in range(epochs):
        train_loss = fit_one_epoch(model, train_loader, batch_transforms, optimizer, scheduler, device)
        val_loss, metrics = evaluate(model, val_loader, batch_transforms, val_metric, device)
        print(f"epoch {epoch + 1}: train {train_loss:.4f} val {val_loss:.4f} {metrics}")
        if val_loss < best:
            best = val_loss
            torch.save(model.state_dict(), "./crnn_best.pt")
