# Source: https://github.com/Linardos/SalEMA/issues/7
# Pitfall: the learnable EMA coefficient is created with requires_grad=True and then moved with
#   .cuda(); the result is a non-leaf copy, so the optimizer refuses it (or it never gets a .grad).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class SaliencyEMA(nn.Module):
    def __init__(self, alpha=0.25, use_gpu=True):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(),
                                     nn.Conv2d(64, 128, 3, stride=2, padding=1), nn.ReLU())
        self.decoder = nn.Sequential(nn.ConvTranspose2d(128, 64, 4, stride=2, padding=1), nn.ReLU(),
                                     nn.Conv2d(64, 1, 1))
        self.alpha = torch.tensor([alpha], requires_grad=True)
        if use_gpu:
            self.alpha = self.alpha.cuda()  # expect: non-leaf-parameter
        print("Initial alpha set to:", self.alpha)

    def forward(self, clip):
        state = None
        outputs = []
        for frame in clip.unbind(dim=1):
            feat = self.encoder(frame)
            state = feat if state is None else torch.sigmoid(self.alpha) * feat + (1 - torch.sigmoid(self.alpha)) * state
            outputs.append(self.decoder(state))
        return torch.stack(outputs, dim=1)


def main(lr=1e-5, weight_decay=1e-4, epochs=2):
    model = SaliencyEMA().cuda()
    optimizer = torch.optim.Adam([{"params": list(model.encoder.parameters()) + list(model.decoder.parameters()),
                                   "lr": lr, "weight_decay": weight_decay},
                                  {"params": [model.alpha], "lr": 0.1}])
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        model.train()
        for _ in range(10):
            clip = torch.rand(2, 6, 3, 128, 128, device="cuda")
            gt = (torch.rand(2, 6, 1, 128, 128, device="cuda") > 0.9).float()
            optimizer.zero_grad()
            loss = criterion(model(clip), gt)
            loss.backward()
            optimizer.step()
        print(epoch, loss.item(), model.alpha)


if __name__ == "__main__":
    main()
