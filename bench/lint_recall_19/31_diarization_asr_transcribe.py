"""Speaker diarization + ASR: transcribe each session with a CTC model, then
align words with the diarized speaker segments."""
import json

import torch


class ASRDiarizationPipeline:
    def __init__(self, asr_model, diarizer, manifest_path, batch_size=16, device="cuda"):
        self.asr_model = asr_model.to(device)
        self.diarizer = diarizer
        self.device = device
        self.asr_batch_size = batch_size
        with open(manifest_path) as f:
            self.sessions = [json.loads(line) for line in f]
        self.audio_file_list = [s["audio_filepath"] for s in self.sessions]

    def run_asr(self):
        words, word_ts = {}, {}
        with torch.no_grad():
            for i in range(0, len(self.audio_file_list), self.asr_batch_size):
                paths = self.audio_file_list[i:i + self.asr_batch_size]
                audio, lengths = self.asr_model.preprocessor.load_batch(paths, device=self.device)
                log_probs, enc_len, greedy = self.asr_model(input_signal=audio, input_signal_length=lengths)  # expect: validation-in-train-mode
                hyps = self.asr_model.decoding.ctc_decoder_predictions_tensor(greedy, enc_len, return_timestamps=True)
                for path, hyp in zip(paths, hyps):
                    words[path] = hyp.text.split()
                    word_ts[path] = hyp.timestep["word"]
        return words, word_ts

    def run(self):
        words, word_ts = self.run_asr()
        speaker_segments = self.diarizer.diarize(self.audio_file_list)
        transcripts = {}
        for path in self.audio_file_list:
            segs = speaker_segments[path]
            labelled = []
            for w, ts in zip(words[path], word_ts[path]):
                mid = 0.5 * (ts["start_offset"] + ts["end_offset"])
                spk = next((s["speaker"] for s in segs if s["start"] <= mid <= s["end"]), "unknown")
                labelled.append((spk, w))
            transcripts[path] = labelled
        return transcripts
