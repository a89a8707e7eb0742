"""Evaluation stage (coming next): model backends, tasks and metrics over the Parquet shards."""
