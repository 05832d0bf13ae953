# Source: https://github.com/szagoruyko/attention-transfer/pull/30
# Pitfall: the distillation term calls F.kl_div with the default 'mean' reduction, which divides by batch
#   size times number of classes rather than by batch size, shrinking the KD term by a factor of C.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def at(x):
    return F.normalize(x.pow(2).mean(1).view(x.size(0), -1))


def at_loss(x, y):
    return (at(x) - at(y)).pow(2).mean()


def distillation(y, teacher_scores, labels, T, alpha):
    p = F.log_softmax(y / T, dim=1)
    q = F.softmax(teacher_scores / T, dim=1)
    l_kl = F.kl_div(p, q) * (T ** 2) * 2.0 * alpha  # expect: kl-div-mean-reduction
    l_ce = F.cross_entropy(y, labels)
    return l_kl + l_ce * (1.0 - alpha)


def train_epoch(student, teacher, loader, optimizer, T=4.0, alpha=0.9, beta=1e3):
    student.train()
    teacher.eval()
    for inputs, targets in loader:
        inputs, targets = inputs.cuda(), targets.cuda()
        y_s, groups_s = student(inputs)
        with torch.no_grad():
            y_t, groups_t = teacher(inputs)
        loss_groups = sum(at_loss(gs, gt) for gs, gt in zip(groups_s, groups_t))
        loss = distillation(y_s, y_t, targets, T, alpha) + beta / 2 * loss_groups
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()
