import time
import torch


def train_epoch(net, optimizer, scheduler, train_loader, device, criterion, epoch, writer=None):
    net.train()
    train_loss = 0.0
    start = time.time()
    scheduler.step()  # expect: scheduler-before-optimizer
    lr = scheduler.get_last_lr()[0]
    for i, (images, labels, training_mask) in enumerate(train_loader):
        cur_batch = images.size(0)
        images, labels, training_mask = images.to(device), labels.to(device), training_mask.to(device)
        outputs = net(images)
        loss_c, loss_s, loss = criterion(outputs, labels, training_mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_loss += loss.item()
        if writer is not None:
            cur_step = epoch * len(train_loader) + i
            writer.add_scalar("Train/loss", loss.item(), cur_step)
            writer.add_scalar("Train/lr", lr, cur_step)
        if i % 10 == 0:
            print(f"[{epoch}][{i}] bs {cur_batch} loss_c {loss_c.item():.4f} loss_s {loss_s.item():.4f} "
                  f"lr {lr:.6f} {time.time() - start:.1f}s")
            start = time.time()
    return train_loss / len(train_loader), lr


def fit(net, optimizer, train_loader, criterion, epochs=600, device="cuda"):
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[200, 400], gamma=0.1)
    for epoch in range(epochs):
        loss, lr = train_epoch(net, optimizer, scheduler, train_loader, device, criterion, epoch)
        print(f"epoch {epoch}: loss {loss:.4f} lr {lr}")
