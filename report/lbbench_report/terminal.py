"""What the report's commands print, made safe for a terminal as core/text.h's printable() does:
control characters (but a line's own newline and tab), DEL and the C1 controls become \\xNN, the
bidirectional-text controls \\uNNNN, so a name from a set or an argument cannot send an escape
sequence or reorder the line it is printed in."""
import re
import sys

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text):
    return _UNSAFE.sub(lambda m: (f"\\x{ord(m[0]):02X}" if ord(m[0]) < 0x100
                                  else f"\\u{ord(m[0]):04X}"), text)


class _Escaping:
    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        return self._stream.write(printable(text))

    def __getattr__(self, name):
        return getattr(self._stream, name)


def escape_output():
    """Every later print to stdout or stderr goes through printable()."""
    sys.stdout, sys.stderr = _Escaping(sys.stdout), _Escaping(sys.stderr)
