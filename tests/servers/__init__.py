"""Real servers that tests talk to over HTTP instead of mocking the client side."""
