"""Notes in the page's language: the one rule for a record's ``notes`` / ``notes_zh``
(hardware.toml devices and models.toml architectures both carry the pair)."""
from __future__ import annotations

__all__ = ["NotesInLanguages"]


class NotesInLanguages:
    """Mixin for a record with ``notes`` (English) and ``notes_zh`` (Chinese; "" = none)."""

    notes: str
    notes_zh: str

    def notes_for(self, lang: str) -> str:
        """The notes in ``lang``: ``notes_zh`` when lang is "zh" and it is non-empty, else
        ``notes``.  English is the fallback for every other language and for a record
        without a Chinese translation (a measured device, a pasted config.json, a private
        file); "" when the record has no notes at all."""
        if lang == "zh" and self.notes_zh:
            return self.notes_zh
        return self.notes
