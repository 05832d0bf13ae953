"""GE2E speaker encoder: L2-normalised embeddings and the similarity matrix."""
import numpy as np
import torch
import torch.nn as nn


class SpeakerEncoder(nn.Module):
    def __init__(self, mel_n_channels=40, hidden=256, embedding_size=256, num_layers=3, loss_device="cpu"):
        super().__init__()
        self.loss_device = loss_device
        self.lstm = nn.LSTM(mel_n_channels, hidden, num_layers, batch_first=True)
        self.linear = nn.Linear(hidden, embedding_size)
        self.relu = nn.ReLU()
        self.similarity_weight = nn.Parameter(torch.tensor([10.0]))
        self.similarity_bias = nn.Parameter(torch.tensor([-5.0]))
        self.loss_fn = nn.CrossEntropyLoss()

    def forward(self, utterances, hidden_init=None):
        out, (hidden, cell) = self.lstm(utterances, hidden_init)
        embeds_raw = self.relu(self.linear(hidden[-1]))
        embeds = embeds_raw / torch.norm(embeds_raw, dim=1, keepdim=True)  # expect: unguarded-zero
        return embeds

    def similarity_matrix(self, embeds):
        speakers_per_batch, utterances_per_speaker = embeds.shape[:2]
        centroids_incl = torch.mean(embeds, dim=1, keepdim=True)
        centroids_incl = centroids_incl.clone() / (torch.norm(centroids_incl, dim=2, keepdim=True) + 1e-5)

        centroids_excl = torch.sum(embeds, dim=1, keepdim=True) - embeds
        centroids_excl /= (utterances_per_speaker - 1)
        centroids_excl = centroids_excl.clone() / torch.norm(centroids_excl, dim=2, keepdim=True)  # expect: unguarded-zero

        sim_matrix = torch.zeros(speakers_per_batch, utterances_per_speaker,
                                 speakers_per_batch, device=self.loss_device)
        mask_matrix = 1 - np.eye(speakers_per_batch, dtype=np.int64)
        for j in range(speakers_per_batch):
            mask = np.where(mask_matrix[j])[0]
            sim_matrix[mask, :, j] = (embeds[mask] * centroids_incl[j]).sum(dim=2)
            sim_matrix[j, :, j] = (embeds[j] * centroids_excl[j]).sum(dim=1)
        return sim_matrix * self.similarity_weight + self.similarity_bias

    def loss(self, embeds):
        speakers_per_batch, utterances_per_speaker = embeds.shape[:2]
        sim_matrix = self.similarity_matrix(embeds)
        sim_matrix = sim_matrix.reshape(speakers_per_batch * utterances_per_speaker, speakers_per_batch)
        ground_truth = torch.arange(speakers_per_batch).repeat_interleave(utterances_per_speaker)
        return self.loss_fn(sim_matrix, ground_truth.to(self.loss_device))
