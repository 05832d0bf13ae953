# Source: https://github.com/SeanNaren/deepspeech.pytorch/commit/83c37dde95f71d20e5a9f53b52455a8a2a1ee9fc
# Pitfall: the spectrogram is moved with spect.to(device) as a bare statement; .to() returns a new tensor,
#   so the input stays on the CPU while the model is on the GPU and the forward pass fails or runs on CPU.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn
import torchaudio


class SpeechModel(nn.Module):
    def __init__(self, n_mels=80, hidden=512, n_tokens=29):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 32, (11, 41), stride=(2, 2), padding=(5, 20)), nn.Hardtanh(0, 20))
        self.rnn = nn.GRU(32 * (n_mels // 2), hidden, num_layers=3, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(2 * hidden, n_tokens)

    def forward(self, spect, lengths):
        x = self.conv(spect)
        b, c, f, t = x.size()
        x, _ = self.rnn(x.view(b, c * f, t).transpose(1, 2))
        return self.fc(x).log_softmax(-1), (lengths + 1) // 2


class SpectrogramParser:
    def __init__(self, sample_rate=16000, n_mels=80):
        self.mel = torchaudio.transforms.MelSpectrogram(sample_rate=sample_rate, n_mels=n_mels)

    def parse_audio(self, path):
        wav, _ = torchaudio.load(path)
        spec = torch.log1p(self.mel(wav.mean(0)))
        return (spec - spec.mean()) / (spec.std() + 1e-5)


def greedy_decode(log_probs, labels="_'ABCDEFGHIJKLMNOPQRSTUVWXYZ "):
    best = log_probs.argmax(-1)[0].tolist()
    out, prev = [], None
    for idx in best:
        if idx != prev and idx != 0:
            out.append(labels[idx])
        prev = idx
    return "".join(out)


@torch.no_grad()
def transcribe(audio_path, parser, model, device):
    spect = parser.parse_audio(audio_path).contiguous()
    spect = spect.view(1, 1, spect.size(0), spect.size(1))
    spect.to(device)  # expect: tensor-op-result-discarded
    input_sizes = torch.IntTensor([spect.size(3)]).int()
    out, output_sizes = model(spect, input_sizes)
    return greedy_decode(out)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--audio-path", required=True)
    ap.add_argument("--model-path", required=True)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SpeechModel()
    model.load_state_dict(torch.load(args.model_path, map_location="cpu", weights_only=True))
    model = model.to(device)
    model.eval()
    print(transcribe(args.audio_path, SpectrogramParser(), model, device))
