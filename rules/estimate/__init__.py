"""The throughput estimate as the engine asks for it."""
