# Source: https://github.com/BatsResearch/labelmodels/issues/4
# Pitfall: The label model's training loop adds each batch loss tensor to running_loss; the sum keeps every batch's autograd graph alive for the whole epoch, and on a large training set the GPU runs out of memory.
# Reproduced in our own words, not the original code.
import torch


def do_training(model, batches, epochs=5, step_size=0.01, verbose=True):
    optimizer = torch.optim.SGD(model.parameters(), lr=step_size, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    for epoch in range(epochs):
        model.train()
        running_loss = 0.0
        for i_batch, inputs in enumerate(batches):
            optimizer.zero_grad()
            log_likelihood = model(*inputs)
            loss = -torch.mean(log_likelihood)
            loss.backward()
            optimizer.step()
            running_loss += loss  # expect: running-loss-keeps-graph
        scheduler.step()
        if verbose:
            print(f"epoch {epoch + 1}: loss {float(running_loss) / (i_batch + 1):.6f}")
