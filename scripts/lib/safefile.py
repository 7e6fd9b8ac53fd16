"""Files the kit writes whole, and the error of a file that is not what it
should be."""
import contextlib
import os


def write_whole(path, text, tmp):
    """TEXT into PATH whole or not at all: written to TMP (a name in the
    same folder), then renamed over PATH.  OSError (TMP removed) if it
    cannot be."""
    try:
        with open(tmp, 'w', encoding='utf-8') as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class BadInput(Exception):
    """A file that is not what it should be; the message names it."""
