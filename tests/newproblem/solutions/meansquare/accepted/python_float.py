# Route: one Python float from the flattened values.
class Solution:
    def mean_square(self, Z):
        values = [x for row in Z for x in row]
        return sum(x * x for x in values) / len(values)
