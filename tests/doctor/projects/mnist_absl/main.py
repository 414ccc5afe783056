"""An MNIST-shaped classifier laid out like the JAX examples: absl flags in main.py, the
training loop in train.py, the model in a package. Data: synthetic digits."""
from absl import app, flags

import train

FLAGS = flags.FLAGS
flags.DEFINE_float("learning_rate", 0.1, "SGD step size.")
flags.DEFINE_integer("num_epochs", 3, "Passes over the data.")
flags.DEFINE_integer("batch_size", 32, "Examples per step.")


def main(argv):
    del argv
    state = train.train_and_evaluate(FLAGS.learning_rate, FLAGS.num_epochs, FLAGS.batch_size)
    print("final test accuracy", round(float(state["accuracy"]), 3))


if __name__ == "__main__":
    app.run(main)
