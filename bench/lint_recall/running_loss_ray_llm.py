# Source: https://github.com/ray-project/ray/pull/40940
# Pitfall: the fine-tuning loop adds outputs.loss (a tensor with its graph) to loss_sum every
# step; host memory grew until the job died.
# Reproduced in our own words, not the original code.
def train_epoch(model, loader, optimizer, scheduler):
    loss_sum = 0.0
    for step, batch in enumerate(loader):
        outputs = model(**batch)
        loss = outputs.loss
        loss_sum += loss  # expect: running-loss-keeps-graph
        loss.backward()
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
    return loss_sum / (step + 1)
