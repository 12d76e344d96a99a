# RUNTIME ERROR: the constructor indexes past the end of b.
class Solution:
    def __init__(self, w, b):
        self.last = b[len(b)]

    def step(self, x):
        return x
