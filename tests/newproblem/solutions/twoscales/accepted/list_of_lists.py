# Route: a list of two nested lists.
class Solution:
    def two_scales(self, Z):
        return [[[2 * x for x in row] for row in Z], [[3 * x for x in row] for row in Z]]
