"""The local web page (`make serve`): the practice layer in a browser, with no judging of its own."""
