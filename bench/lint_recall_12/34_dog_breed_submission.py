"""Kaggle dog-breed: fine-tuned ResNet head, then a probability CSV for submission."""
import os
import torch
from torch import nn
import torchvision


def get_net(devices):
    finetune_net = nn.Sequential()
    finetune_net.features = torchvision.models.resnet34(weights="IMAGENET1K_V1")
    finetune_net.output_new = nn.Sequential(nn.Linear(1000, 256), nn.ReLU(), nn.Linear(256, 120))
    finetune_net = finetune_net.to(devices[0])
    for param in finetune_net.features.parameters():
        param.requires_grad = False
    return finetune_net


def write_submission(net, test_iter, ids, classes, devices, out_path="submission.csv"):
    net.eval()
    preds = []
    with torch.no_grad():
        for data, label in test_iter:
            output = torch.nn.functional.softmax(net(data.to(devices[0])), dim=0)  # expect: softmax-over-batch-dim
            preds.extend(output.cpu().numpy())
    with open(out_path, "w") as f:
        f.write("id," + ",".join(classes) + "\n")
        for i, output in zip(ids, preds):
            f.write(i.split(".")[0] + "," + ",".join([str(num) for num in output]) + "\n")
    return os.path.abspath(out_path)


def train(net, train_iter, num_epochs, lr, wd, devices):
    loss = nn.CrossEntropyLoss()
    trainer = torch.optim.SGD((p for p in net.parameters() if p.requires_grad), lr=lr, momentum=0.9, weight_decay=wd)
    for epoch in range(num_epochs):
        net.train()
        for features, labels in train_iter:
            features, labels = features.to(devices[0]), labels.to(devices[0])
            trainer.zero_grad()
            l = loss(net(features), labels)
            l.backward()
            trainer.step()
