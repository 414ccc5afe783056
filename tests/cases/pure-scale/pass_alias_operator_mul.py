import operator

scaled = operator.mul
