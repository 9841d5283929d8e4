"""Dreaming: the recall ledger, the light / REM / deep phases, and the branch of promotion commits."""
