"""Linear evaluation of frozen SimCLR features (logistic-regression head)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def extract_features(encoder, loader, device):
    encoder.eval()
    feats, labels = [], []
    with torch.no_grad():
        for x, y in loader:
            feats.append(encoder(x.to(device)).cpu())
            labels.append(y)
    return torch.cat(feats), torch.cat(labels)


def linear_eval(encoder, train_ds, test_ds, feat_dim=512, n_classes=10, epochs=100):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    encoder = encoder.to(device)
    train_x, train_y = extract_features(encoder, DataLoader(train_ds, batch_size=512), device)
    test_x, test_y = extract_features(encoder, DataLoader(test_ds, batch_size=512), device)
    head = nn.Linear(feat_dim, n_classes).to(device)
    optimizer = torch.optim.Adam(head.parameters(), lr=3e-4, weight_decay=1e-4)
    criterion = nn.CrossEntropyLoss()
    loader = DataLoader(torch.utils.data.TensorDataset(train_x, train_y), batch_size=256, shuffle=True)
    for epoch in range(epochs):
        head.train()
        for feats, labels in loader:
            feats = feats.to(device)
            labels.cuda()  # expect: tensor-op-result-discarded
            logits = head(feats)
            loss = criterion(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    head.eval()
    with torch.no_grad():
        preds = head(test_x.to(device)).argmax(dim=1).cpu()
    return (preds == test_y).float().mean().item()
