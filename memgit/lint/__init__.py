"""The memory lint, in one place: the rules (`rules.py`: secrets, prompt-injection phrasing,
rewritten past daily logs; pure, bytes in and findings out), the detect-secrets detectors they call
(`detectors.py`), redaction of what the rules flag (`redact.py`, the one way anything memgit copies
or publishes hides a secret), and the I/O that picks which bytes to check (`files.py`: staged or
work-tree files from git). The first three are pure and sit just above `core/` so that config and
every writer can use them; `files.py` sits with the services (import-linter holds both).
"""
