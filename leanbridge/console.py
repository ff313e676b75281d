"""The terminal streams: output that a stream cannot encode falls back to ASCII; bytes of the
command line that are not UTF-8 are shown as ``\\xNN`` (:func:`printable`).

leanbridge prints ``σ``, ``—``, ``≠`` and a few symbols. On a stream whose encoding cannot
represent them (``LANG=C``, ``PYTHONIOENCODING=ascii``, a legacy Windows console) each such
character is spelled in ASCII (``σ`` → ``sigma``, ``—`` → ``--``) instead of raising
``UnicodeEncodeError``; characters without a spelling become ``?``. Such a stream gets all of
leanbridge's output in ASCII, so that its text is consistent.
"""

from __future__ import annotations

import codecs
import io
import re
import sys

ERRORS = "leanbridge-ascii"

#: ASCII spellings of the characters leanbridge prints.
SPELLINGS = {
    "σ": "sigma", "Φ": "Phi", "π": "pi", "α": "alpha", "ℝ": "R", "𝓝": "N",
    "—": "--", "–": "-", "−": "-", "≠": "!=", "≥": ">=", "≤": "<=", "→": "->", "↦": "|->",
    "·": "*", "⊙": "(.)", "…": "...", "²": "^2", "³": "^3", "¹": "^1", "⁻": "^-",
    "√": "sqrt", "∘": "o", "⊆": "<=", "∈": "in", "∀": "forall", "¬": "not ", "×": "x",
    "✅": "[ok]", "⚠": "[!]", "\ufe0f": "", "é": "e", "‖": "||", "ᵀ": "^T",
}


def _spell(error: UnicodeEncodeError) -> tuple[str, int]:
    bad = error.object[error.start:error.end]
    return "".join(SPELLINGS.get(char, "?") for char in bad), error.end


codecs.register_error(ERRORS, _spell)

#: An ASCII codec with the spellings above. Click replaces a stream whose codec is named
#: ``ascii`` by a UTF-8 one (it assumes a misconfigured locale), so an ASCII stream is
#: re-wrapped with this codec, which Click leaves alone.
CODEC = "leanbridge_ascii"


class _Encoder(codecs.IncrementalEncoder):
    def encode(self, text: str, final: bool = False) -> bytes:
        return codecs.ascii_encode(text, ERRORS)[0]


class _Decoder(codecs.BufferedIncrementalDecoder):
    def _buffer_decode(self, data, errors, final):
        return codecs.ascii_decode(data, errors)


def _search(name: str):
    if name.replace("-", "_") != CODEC:
        return None
    return codecs.CodecInfo(name=CODEC,
                            encode=lambda text, errors="strict": codecs.ascii_encode(text, ERRORS),
                            decode=codecs.ascii_decode,
                            incrementalencoder=_Encoder, incrementaldecoder=_Decoder)


codecs.register(_search)


def _encodes(stream, sample: str = "σ—≠⊙✅") -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _fallback(stream):
    """``stream`` itself (reconfigured), or a new ASCII wrapper of its buffer."""
    if stream is None or _encodes(stream):
        return stream
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        stream.flush()
        return io.TextIOWrapper(buffer, encoding=CODEC, errors=ERRORS,
                                line_buffering=getattr(stream, "line_buffering", False))
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors=ERRORS)
        except (ValueError, OSError):
            pass
    return stream


def ascii_fallback() -> None:
    """Make stdout and stderr spell in ASCII what their encoding cannot represent."""
    sys.stdout = _fallback(sys.stdout)
    sys.stderr = _fallback(sys.stderr)


#: How ``repr`` writes an argv byte that is not UTF-8 (Python decodes it to a lone surrogate).
_ESCAPED_SURROGATE = re.compile(r"\\udc([89a-f][0-9a-f])")


def printable(text: str) -> str:
    """``text`` with the bytes of the command line that are not UTF-8 shown as ``\\xNN`` (as
    Python writes bytes), whether raw (U+DC80–U+DCFF, how Python decodes them) or as ``repr``
    wrote them (``\\udcff``): ``'z\\xff'``, not ``'z\\udcff'``."""
    text = _ESCAPED_SURROGATE.sub(r"\\x\1", text)
    return "".join(f"\\x{ord(c) - 0xDC00:02x}" if "\udc80" <= c <= "\udcff" else c
                   for c in text)
