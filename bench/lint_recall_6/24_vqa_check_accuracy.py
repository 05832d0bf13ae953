# Source: https://github.com/facebookresearch/clevr-iep/pull/22
# Pitfall: check_accuracy switches the program generator and execution engine to eval mode to monitor
#   train/val accuracy but never switches them back, so training continues with dropout and batch-norm frozen.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def set_mode(mode, models):
    for m in models:
        if mode == "train":
            m.train()
        else:
            m.eval()


def check_accuracy(program_generator, execution_engine, loader):
    set_mode("eval", [program_generator, execution_engine])  # expect: train-mode-not-restored
    num_correct, num_samples = 0, 0
    with torch.no_grad():
        for questions, feats, answers in loader:
            programs = program_generator(questions).argmax(dim=-1)
            scores = execution_engine(feats, programs)
            num_correct += (scores.argmax(dim=1) == answers).sum().item()
            num_samples += answers.size(0)
    return num_correct / max(num_samples, 1)


def train_loop(program_generator, execution_engine, train_loader, val_loader, check_every=500):
    params = list(program_generator.parameters()) + list(execution_engine.parameters())
    optimizer = torch.optim.Adam(params, lr=5e-4)
    set_mode("train", [program_generator, execution_engine])
    for t, (questions, feats, answers) in enumerate(train_loader):
        optimizer.zero_grad()
        programs = program_generator(questions).argmax(dim=-1)
        scores = execution_engine(feats, programs)
        loss = F.cross_entropy(scores, answers)
        loss.backward()
        optimizer.step()
        if t % check_every == 0:
            print("val acc", check_accuracy(program_generator, execution_engine, val_loader))
