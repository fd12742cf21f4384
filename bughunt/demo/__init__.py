"""The interactive demo page: the simulator in the browser, bit-identical to `bughunt.sim`."""
