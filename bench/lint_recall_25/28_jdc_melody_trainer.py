"""Joint melody extraction + voicing detection (JDC-style CRNN) on spectrogram patches."""
from enum import Enum

import torch
import torch.nn as nn


class TrainStage(Enum):
    TRAIN = 0
    VALIDATE = 1


class JDCNet(nn.Module):
    def __init__(self, num_class=722, hidden=256):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 64, 3, padding=1), nn.BatchNorm2d(64), nn.LeakyReLU(0.01), nn.MaxPool2d((1, 4)),
            nn.Conv2d(64, 64, 3, padding=1), nn.BatchNorm2d(64), nn.LeakyReLU(0.01), nn.MaxPool2d((1, 4)),
        )
        self.bilstm_classifier = nn.LSTM(64 * 32, hidden, batch_first=True, bidirectional=True)
        self.bilstm_detector = nn.LSTM(64 * 32, hidden, batch_first=True, bidirectional=True)
        self.classifier = nn.Linear(2 * hidden, num_class)
        self.detector = nn.Linear(2 * hidden, 2)

    def forward(self, x):
        h = self.conv(x)
        b, c, t, f = h.shape
        h = h.permute(0, 2, 1, 3).reshape(b, t, c * f)
        cls_out, _ = self.bilstm_classifier(h)
        det_out, _ = self.bilstm_detector(h)
        return self.classifier(cls_out), self.detector(det_out)


class JDCTrainer:
    def __init__(self, model, detection_weight=0.5, lr=3e-4):
        self.model = model
        self.detection_weight = detection_weight
        self.loss_classification = nn.CrossEntropyLoss()
        self.loss_detection = nn.CrossEntropyLoss()
        self.adam = torch.optim.Adam(model.parameters(), lr=lr)

    def run_step(self, input_, train_stage):
        input_spec, target_labels, target_isvoice = input_
        input_spec = input_spec.unsqueeze(dim=1)
        out_classification, out_detection = self.model(input_spec)
        classification_loss = self.loss_classification(out_classification.transpose(1, 2), target_labels)
        detection_loss = self.loss_detection(out_detection.transpose(1, 2), target_isvoice)
        total_loss = classification_loss + self.detection_weight * detection_loss
        if train_stage == TrainStage.TRAIN:
            self.adam.zero_grad()
            total_loss.backward()
            self.adam.step()
        # clip gradients to prevent gradient explosion for the LSTM modules
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=0.25)  # expect: clip-after-step
        return total_loss.item()

    def train_epoch(self, batches):
        self.model.train()
        return sum(self.run_step(b, TrainStage.TRAIN) for b in batches) / max(len(batches), 1)

    @torch.no_grad()
    def validate(self, batches):
        self.model.eval()
        loss = sum(self.run_step(b, TrainStage.VALIDATE) for b in batches) / max(len(batches), 1)
        self.model.train()
        return loss


if __name__ == "__main__":
    trainer = JDCTrainer(JDCNet())
    data = [(torch.randn(4, 31, 513), torch.randint(0, 722, (4, 31)), torch.randint(0, 2, (4, 31))) for _ in range(3)]
    for epoch in range(2):
        print(epoch, trainer.train_epoch(data), trainer.validate(data))
