"""LRCN for human activity recognition: CNN features per frame, LSTM over time, class scores."""
import torch
import torch.nn as nn
import torchvision


class ConvLstm(nn.Module):
    def __init__(self, latent_dim, hidden_size, lstm_layers, bidirectional, n_class):
        super().__init__()
        resnet = torchvision.models.resnet152(weights=None)
        self.conv_model = nn.Sequential(*list(resnet.children())[:-1])
        self.fc_latent = nn.Linear(resnet.fc.in_features, latent_dim)
        self.lstm = nn.LSTM(latent_dim, hidden_size, lstm_layers, batch_first=True, bidirectional=bidirectional)
        out_dim = 2 * hidden_size if bidirectional else hidden_size
        self.output_layer = nn.Sequential(nn.Linear(out_dim, n_class), nn.Softmax(dim=-1))

    def forward(self, x):
        b, t, c, h, w = x.shape
        feats = self.conv_model(x.view(b * t, c, h, w)).view(b * t, -1)
        feats = self.fc_latent(feats).view(b, t, -1)
        out, _ = self.lstm(feats)
        return self.output_layer(out[:, -1, :])


def train_model(model, dataloader, device, optimizer, criterion):
    model.train()
    train_loss, correct = 0.0, 0
    for local_images, local_labels in dataloader:
        local_images, local_labels = local_images.to(device), local_labels.to(device)
        optimizer.zero_grad()
        output = model(local_images)
        loss = criterion(output, local_labels)  # expect: softmax-before-cross-entropy
        loss.backward()
        optimizer.step()
        train_loss += loss.item()
        correct += (output.argmax(1) == local_labels).sum().item()
    return train_loss / len(dataloader), correct / len(dataloader.dataset)


criterion = nn.CrossEntropyLoss()
