# Route: divide by the temperature, then a shifted softmax; refuses a temperature that is not a float.
import numpy as np


class Solution:
    def tempered_softmax(self, Z, temperature):
        if type(temperature) is not float:
            raise TypeError(f"temperature arrived as {type(temperature).__name__}")
        Z = np.asarray(Z, dtype=np.float64) / temperature
        E = np.exp(Z - Z.max(axis=1, keepdims=True))
        return E / E.sum(axis=1, keepdims=True)
