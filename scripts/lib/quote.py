"""Text that someone else wrote, made safe to show: visible() for the
bytes of a guest's channel, quoted() for a terminal (the one quoting
function of make progress, make room, make join)."""
import unicodedata


def visible(raw):
    """bytes -> text, with NULs and control bytes (but tabs) made visible."""
    text = raw.decode('utf-8', errors='backslashreplace')
    out = []
    for c in text:
        if c == '\0':
            out.append('\\0')
        elif (ord(c) < 32 and c != '\t') or ord(c) == 127:
            out.append('\\x%02x' % ord(c))
        else:
            out.append(c)
    return ''.join(out)


# quoted(): the characters a terminal must not be given as they are.
C_ESCAPES = {'\a': '\\a', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\v': '\\v', '\f': '\\f',
             '\r': '\\r', '"': '\\"', '\\': '\\\\'}


def hidden(c):
    """C cannot go to a terminal as it is: a control character (C0, DEL,
    C1: escape sequences, OSC 52 writes the clipboard), a format
    character (the bidi overrides and isolates that reorder what follows,
    zero-width ones), a line or paragraph separator, a byte that was not
    UTF-8 (a lone surrogate of surrogateescape), a private or unassigned
    code point."""
    return unicodedata.category(c) in ('Cc', 'Cf', 'Zl', 'Zp', 'Cs', 'Co', 'Cn')


def quoted(text, limit=None):
    """TEXT, a string from a file or a post someone else wrote (a name, a
    value, a file's own name), as the kit shows it on a terminal: the one
    quoting function for that (make progress, make room, make join).  As
    git's quote_path and GNU ls's c quoting: a string with no hidden
    character (hidden()), no backslash and no double quote is shown as
    it is; any other in double quotes, C escapes (\\n, \\t, \\", \\\\), a
    control byte in octal (ESC: \\033), a byte that was not UTF-8 as
    \\xNN, anything else hidden as \\uXXXX (U+202E, the right-to-left
    override: \\u202e).  LIMIT: cut to that many characters first
    ("..." added), never inside an escape."""
    if limit is not None and len(text) > limit:
        text = text[:max(limit - 3, 0)] + '...'
    if not any(hidden(c) or c in '"\\' for c in text):
        return text
    out = []
    for c in text:
        o = ord(c)
        if c in C_ESCAPES:
            out.append(C_ESCAPES[c])
        elif 0xdc80 <= o <= 0xdcff:
            out.append('\\x%02x' % (o - 0xdc00))
        elif o < 0x20 or o == 0x7f:
            out.append('\\%03o' % o)
        elif hidden(c):
            out.append('\\u%04x' % o if o <= 0xffff else '\\U%08x' % o)
        else:
            out.append(c)
    return '"%s"' % ''.join(out)
