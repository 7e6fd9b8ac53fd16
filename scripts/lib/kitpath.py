"""Paths of the kit as the Python scripts show them: KIT, the kit's
folder, and rel(), the twin of scripts/lib/lib.sh's rel (tests/host/lib.sh
checks that the two agree)."""
import os

KIT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def rel(path):
    """PATH as messages show it: relative to the kit when it is in it
    (build/logs/x.log), else absolute (a relative PATH is made absolute
    first; lib.sh's callers give absolute ones)."""
    full = os.path.abspath(path)
    return full[len(KIT) + 1:] if full.startswith(KIT + os.sep) else full
