"""Label-map to image inference for a pix2pixHD-style global generator."""
import torch
import torch.nn as nn
from torch.autograd import Variable


class GlobalGenerator(nn.Module):
    def __init__(self, in_nc=36, out_nc=3, ngf=64, n_down=3, n_blocks=6):
        super().__init__()
        layers = [nn.ReflectionPad2d(3), nn.Conv2d(in_nc, ngf, 7), nn.InstanceNorm2d(ngf), nn.ReLU(True)]
        ch = ngf
        for _ in range(n_down):
            layers += [nn.Conv2d(ch, ch * 2, 3, stride=2, padding=1), nn.InstanceNorm2d(ch * 2), nn.ReLU(True)]
            ch *= 2
        for _ in range(n_blocks):
            layers += [nn.Conv2d(ch, ch, 3, padding=1), nn.InstanceNorm2d(ch), nn.ReLU(True)]
        for _ in range(n_down):
            layers += [nn.ConvTranspose2d(ch, ch // 2, 3, stride=2, padding=1, output_padding=1),
                       nn.InstanceNorm2d(ch // 2), nn.ReLU(True)]
            ch //= 2
        layers += [nn.ReflectionPad2d(3), nn.Conv2d(ch, out_nc, 7), nn.Tanh()]
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        return self.model(x)


class Pix2PixHDModel:
    def __init__(self, label_nc=35, gpu=True):
        self.label_nc = label_nc
        self.device = torch.device("cuda" if gpu and torch.cuda.is_available() else "cpu")
        self.netG = GlobalGenerator(in_nc=label_nc + 1).to(self.device)

    def encode_input(self, label_map, inst_map):
        size = label_map.size()
        one_hot = torch.zeros(size[0], self.label_nc, size[2], size[3], device=self.device)
        one_hot = one_hot.scatter_(1, label_map.long().to(self.device), 1.0)
        edges = torch.zeros_like(inst_map, dtype=torch.float, device=self.device)
        edges[:, :, :, 1:] = (inst_map[:, :, :, 1:] != inst_map[:, :, :, :-1]).float()
        return torch.cat([one_hot, edges], dim=1)

    def inference(self, label_map, inst_map):
        self.netG.eval()
        input_label = self.encode_input(label_map, inst_map)
        input_label = Variable(input_label, volatile=True)  # expect: volatile-variable
        fake_image = self.netG(input_label)
        return fake_image


if __name__ == "__main__":
    model = Pix2PixHDModel(gpu=False)
    labels = torch.randint(0, 35, (1, 1, 128, 256))
    insts = torch.randint(0, 10, (1, 1, 128, 256))
    out = model.inference(labels, insts)
    print(out.shape)
