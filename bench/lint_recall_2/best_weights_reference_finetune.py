# Source: https://github.com/pytorch/tutorials/pull/188
# Pitfall: The fine-tuning loop remembers the best epoch with best_model_wts = model.state_dict(); state_dict() returns references to the live parameters, so the "best" weights keep changing and the model returned is the last epoch's.
# Reproduced in our own words, not the original code.
import torch


def train_model(model, criterion, optimizer, scheduler, dataloaders, dataset_sizes, num_epochs=25):
    best_model_wts = model.state_dict()
    best_acc = 0.0
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            if phase == "train":
                model.train()
            else:
                model.eval()
            running_corrects = 0
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    _, preds = torch.max(outputs, 1)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_corrects += torch.sum(preds == labels).item()
            if phase == "train":
                scheduler.step()
            epoch_acc = running_corrects / dataset_sizes[phase]
            if phase == "val" and epoch_acc > best_acc:
                best_acc = epoch_acc
                best_model_wts = model.state_dict()  # expect: state-dict-not-copied
    model.load_state_dict(best_model_wts)
    return model
