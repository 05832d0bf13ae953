"""Knowledge distillation on CIFAR-10: a small CNN student learns from a frozen ResNet teacher's softened outputs."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def loss_fn_kd(outputs, labels, teacher_outputs, alpha=0.9, temperature=4.0):
    T = temperature
    kd = nn.KLDivLoss()(F.log_softmax(outputs / T, dim=1),  # expect: kl-div-mean-reduction
                        F.softmax(teacher_outputs / T, dim=1)) * (alpha * T * T)
    return kd + F.cross_entropy(outputs, labels) * (1.0 - alpha)


def fetch_teacher_outputs(teacher, loader, device):
    teacher.eval()
    outs = []
    with torch.no_grad():
        for images, _ in loader:
            outs.append(teacher(images.to(device)).cpu())
    return outs


def train_kd(student, teacher_outputs, optimizer, loader, device, params):
    student.train()
    running, n = 0.0, 0
    for i, (images, labels) in enumerate(loader):
        images, labels = images.to(device), labels.to(device)
        output_batch = student(images)
        teacher_batch = teacher_outputs[i].to(device)
        loss = loss_fn_kd(output_batch, labels, teacher_batch, params["alpha"], params["temperature"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item() * labels.size(0)
        n += labels.size(0)
    return running / n


@torch.no_grad()
def evaluate(student, loader, device):
    student.eval()
    correct = total = 0
    for images, labels in loader:
        correct += (student(images.to(device)).argmax(dim=1).cpu() == labels).sum().item()
        total += labels.numel()
    return correct / total


def train_and_evaluate_kd(student, teacher, train_loader_fixed_order, val_loader, params, device="cuda"):
    student, teacher = student.to(device), teacher.to(device)
    optimizer = torch.optim.SGD(student.parameters(), lr=params["lr"], momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=100, gamma=0.2)
    teacher_outputs = fetch_teacher_outputs(teacher, train_loader_fixed_order, device)
    best = 0.0
    for epoch in range(params["num_epochs"]):
        loss = train_kd(student, teacher_outputs, optimizer, train_loader_fixed_order, device, params)
        scheduler.step()
        acc = evaluate(student, val_loader, device)
        best = max(best, acc)
        print(f"epoch {epoch}: loss {loss:.4f} val acc {acc:.4f} best {best:.4f}")
