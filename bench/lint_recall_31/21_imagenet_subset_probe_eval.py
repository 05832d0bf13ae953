"""Fine-tune a vision backbone on a CIFAR-100 subset and report held-out loss / accuracy per epoch."""
import torch
import torchvision
from torch.utils.data import DataLoader, random_split
from torchvision import transforms


def train_one_epoch(loader, model, optimizer, loss_fn, device="cuda", is_inception=False):
    model.train()
    last_loss, running = 0.0, 0.0
    for i, (inputs, labels) in enumerate(loader):
        inputs, labels = inputs.to(device), labels.to(device)
        optimizer.zero_grad()
        outputs = model(inputs)
        if is_inception:
            outputs = outputs[0]
        loss = loss_fn(outputs, labels)
        loss.backward()
        optimizer.step()
        running += loss.item()
        if i % 100 == 99:
            last_loss, running = running / 100, 0.0
    return last_loss


def test_one_epoch(validation_loader, model, loss_fn, device="cuda", is_inception=False):
    model.eval()
    running_vloss = 0.0
    running_acc = 0.0
    for i, (vinputs, vlabels) in enumerate(validation_loader):
        vinputs = vinputs.to(device)
        vlabels = vlabels.to(device)
        voutputs = model(vinputs)  # expect: validation-in-train-mode
        if is_inception:
            voutputs = voutputs[1]
        vloss = loss_fn(voutputs, vlabels)
        running_vloss += vloss.item()
        running_acc += (voutputs.argmax(1) == vlabels).sum().item() / vlabels.size(0)
    return running_vloss / (i + 1), running_acc / (i + 1)


if __name__ == "__main__":
    tf = transforms.Compose([transforms.Resize(224), transforms.ToTensor(),
                             transforms.Normalize((0.485, 0.456, 0.406), (0.229, 0.224, 0.225))])
    data = torchvision.datasets.CIFAR100("/tmp/cifar", train=True, download=True, transform=tf)
    train_set, val_set = random_split(data, [45000, 5000], generator=torch.Generator().manual_seed(111))
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=4)
    val_loader = DataLoader(val_set, batch_size=64, num_workers=4)
    model = torchvision.models.resnet50(num_classes=100).cuda()
    loss_fn = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    for epoch in range(5):
        tr = train_one_epoch(train_loader, model, optimizer, loss_fn)
        vl, va = test_one_epoch(val_loader, model, loss_fn)
        print(f"epoch {epoch}: train {tr:.3f} val {vl:.3f} acc {va:.3f}")
