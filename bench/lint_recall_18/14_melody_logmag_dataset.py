"""Melody extraction: log-magnitude spectrogram chunks from audio files, classified per frame into pitch bins."""
import glob
import os

import torch
import torch.nn as nn
import torchaudio
from torch.utils.data import DataLoader, Dataset


class SpectrogramChunks(Dataset):
    def __init__(self, audio_dir, label_dir, target_sr=8000, chunk_size=31):
        self.files = sorted(glob.glob(os.path.join(audio_dir, "*.wav")))
        self.label_dir = label_dir
        self.target_sr = target_sr
        self.chunk_size = chunk_size
        self.window = torch.hann_window(1024)

    def __len__(self):
        return len(self.files)

    def __getitem__(self, idx):
        wav, sr = torchaudio.load(self.files[idx])
        wav = torchaudio.functional.resample(wav.mean(dim=0), sr, self.target_sr)
        spec = torch.stft(wav, n_fft=1024, hop_length=80, win_length=1024,
                          window=self.window, return_complex=True)
        log_mag = torch.log(spec.abs())  # expect: unguarded-zero
        name = os.path.splitext(os.path.basename(self.files[idx]))[0]
        labels = torch.load(os.path.join(self.label_dir, name + ".pt"), weights_only=True)
        start = torch.randint(0, log_mag.shape[1] - self.chunk_size, (1,)).item()
        x = log_mag[:, start:start + self.chunk_size].t().unsqueeze(0)
        y = labels[start:start + self.chunk_size]
        return x, y


class JDCNetLite(nn.Module):
    def __init__(self, n_bins=513, n_classes=722):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.LeakyReLU(0.01),
            nn.MaxPool2d((1, 4)),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.LeakyReLU(0.01),
            nn.MaxPool2d((1, 4)),
        )
        self.rnn = nn.LSTM(64 * (n_bins // 16), 256, batch_first=True, bidirectional=True)
        self.head = nn.Linear(512, n_classes)

    def forward(self, x):
        h = self.conv(x)
        b, c, t, f = h.shape
        h = h.permute(0, 2, 1, 3).reshape(b, t, c * f)
        out, _ = self.rnn(h)
        return self.head(out)


def train(audio_dir, label_dir, epochs=50):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(SpectrogramChunks(audio_dir, label_dir), batch_size=64, shuffle=True,
                        num_workers=8, pin_memory=True)
    model = JDCNetLite().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4, weight_decay=1e-4)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            logits = model(x)
            loss = criterion(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())
