"""Argument types the benchmark scripts share."""
import argparse


def positive(text):
    """An argument that must be a whole number of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: at least 1")
    return value
