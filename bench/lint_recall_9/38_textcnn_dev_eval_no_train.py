# Source: https://github.com/Shawn1993/cnn-text-classification-pytorch/commit/5e11c712d34bfc105931678168443d393e31a37c
# Pitfall: model.train() is called once before the epoch loop, but the periodic dev evaluation switches the
#   model to eval() and nothing switches it back, so after the first evaluation dropout is off for training.
# Reproduced in our own words, not the original code.
import os
import sys

import torch
import torch.nn.functional as F


def evaluate(data_iter, model, use_cuda):
    model.eval()
    corrects, total_loss, size = 0, 0.0, 0
    with torch.no_grad():
        for batch in data_iter:
            feature, target = batch.text.t(), batch.label - 1
            if use_cuda:
                feature, target = feature.cuda(), target.cuda()
            logit = model(feature)
            total_loss += F.cross_entropy(logit, target, reduction="sum").item()
            corrects += (logit.argmax(1) == target).sum().item()
            size += target.numel()
    print(f"\nEvaluation - loss: {total_loss / size:.6f} acc: {100.0 * corrects / size:.2f}%")
    return 100.0 * corrects / size


def save(model, save_dir, prefix, steps):
    os.makedirs(save_dir, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(save_dir, f"{prefix}_steps_{steps}.pt"))


def train(train_iter, dev_iter, model, args):
    if args.cuda:
        model.cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    steps, best_acc, last_step = 0, 0.0, 0
    model.train()
    for epoch in range(1, args.epochs + 1):
        for batch in train_iter:
            feature, target = batch.text.t(), batch.label - 1
            if args.cuda:
                feature, target = feature.cuda(), target.cuda()
            optimizer.zero_grad()
            logit = model(feature)
            loss = F.cross_entropy(logit, target)
            loss.backward()
            optimizer.step()
            steps += 1
            if steps % args.log_interval == 0:
                sys.stdout.write(f"\rBatch[{steps}] - loss: {loss.item():.6f}")
            if steps % args.test_interval == 0:
                dev_acc = evaluate(dev_iter, model, args.cuda)  # expect: train-mode-not-restored
                if dev_acc > best_acc:
                    best_acc, last_step = dev_acc, steps
                    if args.save_best:
                        save(model, args.save_dir, "best", steps)
                elif steps - last_step >= args.early_stop:
                    print(f"early stop by {args.early_stop} steps.")
                    return best_acc
    return best_acc
