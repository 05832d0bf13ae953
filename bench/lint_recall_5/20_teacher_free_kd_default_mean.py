# Source: https://github.com/yuanli2333/Teacher-free-Knowledge-Distillation/issues/5
# Pitfall: the KD term uses nn.KLDivLoss() with its default reduction='mean', which averages over classes as
#          well as the batch; the PyTorch docs say only 'batchmean' gives the true KL, so the term is ~C times too small.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def kd_objective(student_logits, labels, teacher_logits, alpha=0.9, temperature=4.0):
    ce = F.cross_entropy(student_logits, labels)
    soft = nn.KLDivLoss()(F.log_softmax(student_logits / temperature, dim=1),  # expect: kl-div-mean-reduction
                          F.softmax(teacher_logits / temperature, dim=1)) * (temperature * temperature)
    return (1.0 - alpha) * ce + alpha * soft


def train_student(student, teacher, batches, epochs=2):
    opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    teacher.eval()
    for epoch in range(epochs):
        student.train()
        for x, y in batches:
            with torch.no_grad():
                t_logits = teacher(x)
            opt.zero_grad()
            loss = kd_objective(student(x), y, t_logits)
            loss.backward()
            opt.step()
        print("epoch", epoch, "loss", loss.item())


if __name__ == "__main__":
    big = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 512), nn.ReLU(), nn.Linear(512, 100))
    small = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 64), nn.ReLU(), nn.Linear(64, 100))
    data = [(torch.randn(32, 3, 32, 32), torch.randint(0, 100, (32,))) for _ in range(8)]
    train_student(small, big, data)
