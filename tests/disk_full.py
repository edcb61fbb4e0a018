"""A disk that fills up part way: for the promise that a failed write leaves nothing."""
from __future__ import annotations


def full_at_hand(monkeypatch, module, number: int) -> None:
    """``module`` writes hands through its ``hand_fields``: the ``number``-th hand it writes
    fails, as on a full disk, after the ones before it were written."""
    real_hand_fields = module.hand_fields
    written = []

    def breaks(deal, teams):
        written.append(deal)
        if len(written) == number:
            raise RuntimeError("disk full")
        return real_hand_fields(deal, teams)

    monkeypatch.setattr(module, "hand_fields", breaks)
