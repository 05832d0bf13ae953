"""Evaluate the best 3D UNet checkpoint on the validation volumes with sliding windows."""
import glob
import os

import torch
from monai.data import DataLoader, Dataset, decollate_batch
from monai.inferers import sliding_window_inference
from monai.metrics import DiceMetric
from monai.networks.nets import UNet
from monai.transforms import (AsDiscrete, Compose, EnsureChannelFirstd, LoadImaged, Orientationd,
                              ScaleIntensityRanged, Spacingd)

data_dir = "Task09_Spleen"
images = sorted(glob.glob(os.path.join(data_dir, "imagesTr", "*.nii.gz")))
labels = sorted(glob.glob(os.path.join(data_dir, "labelsTr", "*.nii.gz")))
val_files = [{"image": i, "label": l} for i, l in zip(images[-9:], labels[-9:])]

val_transforms = Compose([
    LoadImaged(keys=["image", "label"]),
    EnsureChannelFirstd(keys=["image", "label"]),
    Orientationd(keys=["image", "label"], axcodes="RAS"),
    Spacingd(keys=["image", "label"], pixdim=(1.5, 1.5, 2.0), mode=("bilinear", "nearest")),
    ScaleIntensityRanged(keys=["image"], a_min=-57, a_max=164, b_min=0.0, b_max=1.0, clip=True),
])
val_loader = DataLoader(Dataset(val_files, val_transforms), batch_size=1, num_workers=4)

device = torch.device("cuda:0")
model = UNet(spatial_dims=3, in_channels=1, out_channels=2, channels=(16, 32, 64, 128, 256),
             strides=(2, 2, 2, 2), num_res_units=2).to(device)
model.load_state_dict(torch.load("best_metric_model.pth", map_location=device))  # expect: torch-load-unsafe
model.eval()

post_pred = Compose([AsDiscrete(argmax=True, to_onehot=2)])
post_label = Compose([AsDiscrete(to_onehot=2)])
dice = DiceMetric(include_background=False, reduction="mean")

with torch.no_grad():
    for batch in val_loader:
        inputs, targets = batch["image"].to(device), batch["label"].to(device)
        outputs = sliding_window_inference(inputs, (160, 160, 160), 4, model)
        preds = [post_pred(o) for o in decollate_batch(outputs)]
        gts = [post_label(t) for t in decollate_batch(targets)]
        dice(y_pred=preds, y=gts)

print("mean dice:", dice.aggregate().item())
dice.reset()
