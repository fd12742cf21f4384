"""Helpers the test modules share: loopback servers, clients, scripted models, small apps.

Test modules import from here, never from each other; fixtures every test may use live in
`tests/conftest.py`."""
