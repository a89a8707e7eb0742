"""cdtp's Beam pipeline and its command line."""
