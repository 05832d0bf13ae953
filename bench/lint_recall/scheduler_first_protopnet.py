# Source: https://github.com/jdonnelly36/Deformable-ProtoPNet/issues/6
# Pitfall: the joint-training LR scheduler steps before the epoch's training pass (fixed in
# commit e6a7d39 by moving it after).
# Reproduced in our own words, not the original code.
def train_epoch(model, loader, optimizer):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        loss = model.loss(x, y)
        loss.backward()
        optimizer.step()


def main(model, loader, joint_optimizer, joint_lr_scheduler, num_train_epochs, warm_epochs):
    for epoch in range(num_train_epochs):
        if epoch >= warm_epochs:
            joint_lr_scheduler.step()  # expect: scheduler-before-optimizer
            train_epoch(model, loader, joint_optimizer)
