# Source: https://github.com/sql-machine-learning/elasticdl/pull/2426
# Pitfall: The elastic/distributed training worker wraps the optimizer for all-reduce and calls
# backward() and step() per minibatch, but zero_grad is never executed, so gradients accumulate.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F
import horovod.torch as hvd


def build(model, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr * hvd.size(), momentum=0.9)
    opt = hvd.DistributedOptimizer(opt, named_parameters=model.named_parameters())
    hvd.broadcast_parameters(model.state_dict(), root_rank=0)
    return opt


def worker_train(model, records, lr, log_every=50):
    optimizer = build(model, lr)
    model.train()
    for step, (features, labels) in enumerate(records):
        logits = model(features)
        loss = F.cross_entropy(logits, labels)
        loss.backward()
        optimizer.step()  # expect: gradients-never-cleared
        if step % log_every == 0 and hvd.rank() == 0:
            print(step, loss.item())
