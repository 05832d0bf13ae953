# Source: https://github.com/michuanhaohao/reid-strong-baseline/issues/190
# Pitfall: the LR scheduler is stepped at the start of every epoch, before that epoch's
# optimizer steps.
# Reproduced in our own words, not the original code.
def do_train(model, train_loader, optimizer, scheduler, loss_fn, epochs):
    for epoch in range(epochs):
        scheduler.step()  # expect: scheduler-before-optimizer
        model.train()
        for img, target in train_loader:
            optimizer.zero_grad()
            score, feat = model(img)
            loss = loss_fn(score, feat, target)
            loss.backward()
            optimizer.step()
