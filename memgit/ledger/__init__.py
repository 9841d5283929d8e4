"""The recall ledger: what searches surfaced and what agents read, recorded as evidence for dreaming.

One home for the whole path of a recall: the line format (`lines`), this clone's spool that
searches write to without touching the work tree (`spool`, with publishing into the tracked,
union-merged `memory/.dreams/recall/`), recording a search (`recording`), uses of MEMORY.md that
are not searches (`uses`), the clock that dates them (`clock`) and reading the ledger back (`read`).
"""
