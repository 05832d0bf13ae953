"""Deep convolutional embedded clustering: autoencoder + clustering layer trained with a KL target."""
import torch
import torch.nn as nn


class ClusteringLayer(nn.Module):
    def __init__(self, in_features=10, out_features=10, alpha=1.0):
        super().__init__()
        self.alpha = alpha
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x):
        dist = (x.unsqueeze(1) - self.weight).pow(2).sum(dim=2)
        q = 1.0 / (1.0 + dist / self.alpha)
        q = q.pow((self.alpha + 1.0) / 2.0)
        return q / q.sum(dim=1, keepdim=True)


class CAE(nn.Module):
    def __init__(self, num_clusters=10, embed=10):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 32, 5, 2, 2), nn.ReLU(), nn.Conv2d(32, 64, 5, 2, 2), nn.ReLU(),
                                     nn.Flatten(), nn.Linear(64 * 7 * 7, embed))
        self.decoder = nn.Sequential(nn.Linear(embed, 64 * 7 * 7), nn.ReLU(), nn.Unflatten(1, (64, 7, 7)),
                                     nn.ConvTranspose2d(64, 32, 4, 2, 1), nn.ReLU(), nn.ConvTranspose2d(32, 1, 4, 2, 1))
        self.clustering = ClusteringLayer(embed, num_clusters)

    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z), self.clustering(z)


def target_distribution(q):
    weight = q ** 2 / q.sum(dim=0)
    return (weight.t() / weight.sum(dim=1)).t()


def train_dcec(model, loader, epochs=20, gamma=0.1, device="cuda"):
    criteria = [nn.MSELoss(), nn.KLDivLoss(reduction="sum")]
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.to(device)
    for epoch in range(epochs):
        model.train()
        for inputs, _ in loader:
            inputs = inputs.to(device)
            batch = inputs.size(0)
            outputs, clusters = model(inputs)
            tar_dist = target_distribution(clusters).detach()
            loss_rec = criteria[0](outputs, inputs)
            loss_clust = gamma * criteria[1](clusters, tar_dist) / batch  # expect: kl-div-input-not-log
            loss = loss_rec + loss_clust
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
