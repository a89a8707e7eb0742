"""Pure functions behind every pipeline stage: no Beam, no I/O."""
