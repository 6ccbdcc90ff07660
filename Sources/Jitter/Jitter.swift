// Jitter: the adaptive jitter buffer state machine, its statistics and the playout simulator.
