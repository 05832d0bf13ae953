# Source: https://github.com/bubbliiiing/yolo3-pytorch/issues/3
# Pitfall: `total_loss += loss` in the training loop (a pre-0.4 habit): the sum is a tensor
# that drags every iteration's graph along and can run the GPU out of memory.
# Reproduced in our own words, not the original code.
import torch


def fit_one_epoch(net, yolo_loss, optimizer, gen):
    total_loss = 0
    net.train()
    for iteration, (images, targets) in enumerate(gen):
        optimizer.zero_grad()
        outputs = net(images)
        loss = sum(yolo_loss(o, targets) for o in outputs)
        loss.backward()
        optimizer.step()
        total_loss += loss  # expect: running-loss-keeps-graph
        if iteration % 50 == 0:
            print(f"loss {total_loss / (iteration + 1)}")
    return total_loss
