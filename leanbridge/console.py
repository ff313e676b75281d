"""The terminal streams: output that a stream cannot encode falls back to ASCII.

leanbridge prints ``σ``, ``—``, ``≠`` and a few symbols. On a stream whose encoding cannot
represent them (``LANG=C``, ``PYTHONIOENCODING=ascii``, a legacy Windows console) each such
character is spelled in ASCII (``σ`` → ``sigma``, ``—`` → ``--``) instead of raising
``UnicodeEncodeError``; characters without a spelling become ``?``.
"""

from __future__ import annotations

import codecs
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


def _encodes(stream, sample: str = "σ—≠⊙✅") -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def ascii_fallback(*streams) -> None:
    """Make each stream (default: stdout and stderr) spell what it cannot encode in ASCII."""
    for stream in streams or (sys.stdout, sys.stderr):
        if stream is None or _encodes(stream):
            continue
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors=ERRORS)
            except (ValueError, OSError):
                pass
