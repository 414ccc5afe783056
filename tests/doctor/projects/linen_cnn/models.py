"""A small convolutional classifier in flax Linen: two conv blocks, dropout before the head."""
import flax.linen as nn


class CNN(nn.Module):
    num_classes: int = 4
    dropout_rate: float = 0.25

    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Conv(features=4, kernel_size=(3, 3))(x)
        x = nn.relu(x)
        x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = nn.Conv(features=8, kernel_size=(3, 3))(x)
        x = nn.relu(x)
        x = x.reshape((x.shape[0], -1))
        x = nn.Dense(features=32)(x)
        x = nn.relu(x)
        x = nn.Dropout(rate=self.dropout_rate, deterministic=not train)(x)
        return nn.Dense(features=self.num_classes)(x)
