"""Text in the page's language: the one rule for a record's ``notes`` / ``notes_zh``
(hardware.toml devices and models.toml architectures both carry the pair) and for a
device's ``network_source`` / ``network_source_zh``."""
from __future__ import annotations

__all__ = ["NotesInLanguages", "in_language"]


def in_language(english: str, chinese: str, lang: str) -> str:
    """``chinese`` when lang is "zh" and it is non-empty, else ``english``.  English is the
    fallback for every other language and for a record without a Chinese translation (a
    measured device, a pasted config.json, a private file)."""
    if lang == "zh" and chinese:
        return chinese
    return english


class NotesInLanguages:
    """Mixin for a record with ``notes`` (English) and ``notes_zh`` (Chinese; "" = none)."""

    notes: str
    notes_zh: str

    def notes_for(self, lang: str) -> str:
        """The notes in ``lang``: ``notes_zh`` when lang is "zh" and it is non-empty, else
        ``notes``.  English is the fallback for every other language and for a record
        without a Chinese translation (a measured device, a pasted config.json, a private
        file); "" when the record has no notes at all."""
        return in_language(self.notes, self.notes_zh, lang)
