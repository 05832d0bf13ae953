# Source: https://github.com/michuanhaohao/reid-strong-baseline/issues/190
# Pitfall: The ignite trainer steps the LR scheduler in an EPOCH_STARTED handler, i.e. before the first optimizer.step() of the epoch; PyTorch >= 1.1 warns that the first value of the schedule is skipped.
# Reproduced in our own words, not the original code.
import torch
from ignite.engine import Engine, Events


def create_trainer(model, optimizer, loss_fn, device):
    def _update(engine, batch):
        model.train()
        optimizer.zero_grad()
        img, target = batch
        img, target = img.to(device), target.to(device)
        score, feat = model(img)
        loss = loss_fn(score, feat, target)
        loss.backward()
        optimizer.step()
        return loss.item()

    return Engine(_update)


def do_train(model, train_loader, optimizer, loss_fn, device, epochs=120):
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[40, 70], gamma=0.1)
    trainer = create_trainer(model, optimizer, loss_fn, device)

    @trainer.on(Events.EPOCH_STARTED)
    def adjust_learning_rate(engine):
        scheduler.step()  # expect: scheduler-before-optimizer

    @trainer.on(Events.ITERATION_COMPLETED(every=50))
    def log_loss(engine):
        print(f"epoch {engine.state.epoch} loss {engine.state.output:.3f}")

    trainer.run(train_loader, max_epochs=epochs)
