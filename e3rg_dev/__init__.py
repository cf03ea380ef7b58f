"""Developer tools beside the Space's package: the full tier's hub rehearsal and the lite heads' training. The
Space never imports them; tests, scripts and benchmarks do."""
