"""Held-out cases for the shape rules (S106-S113), written after the rules were tuned on
`bench/secrets_corpus_shapes.py` and in other wordings: the figures in docs/SECURITY.md under
"held out" are these cases' first run (28 of 34 caught, no false alarm); the misses were fixed
after, so these cases are no longer unseen. Values are made up (checksums computed where a rule checks
one). Each rule has secrets it must flag and look-alikes it must leave alone.
"""

from __future__ import annotations

SECRET_CASES: dict[str, list[str]] = {
    "S106": [
        "Pay the cleaner: NL91 ABNA 0417 1643 00, name J. de Vries",
        "- Standing order from GB33BUKB20201555555555 on the 1st",
        "Überweisung an AT61 1904 3002 3457 3201 (Hausverwaltung)",
        "* the club's bank account is CH93 0076 2011 6238 5295 7",
    ],
    "S107": [
        "- Netflix is billed to 4012 8888 8888 1881 (exp 11/29)",
        "Amex for travel: 3782 822463 10005 - CID 4821",
    ],
    "S108": [
        "- bike lock combination: 4-9-2-7",
        "Code to get into the building is 58213, then lift to 4",
        "- Alexa read out the login code 773 104 for the TV app",
        "- 2-step codes (keep offline): 91824 55017 23390 64471",
        "Garage opener PIN = 0719",
        "- the keybox on the fence opens with 3391",
        "- Bank app one-time passcode 448291, expires in 5 min",
    ],
    "S109": [
        "- AOK Versichertennummer: K123456789",
        "My passport no is 532871946 (UK)",
        "- Gym membership number 0048 1953 22",
        "Travel insurance policy # TRV-88412-07 with Allianz",
        "- NHS number 943 476 5919",
    ],
    "S110": [
        '- Grandma sent: "new wifi password: Tulpen2026!"',
        "> wlan: Kaffeehaus-GAST / pw: melange88",
        "- From the Slack thread: 'login works with ops / Kx93!vb2'",
        "- Host's note says «WiFi key: Mare7Monti»",
    ],
    "S111": [
        "- Sentry auth token 7c1f0e2d9b8a4c6e5f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c",
        "- signing key for the webhooks: Pq7Zr2Lm9Xy4Wt6Vk1Bn8Jc3Hd5Gf0S",
        "The staging credentials are in this string Hq8Rt3Zp1Lm6Wv9Ks2Nc5Jd",
        "- new API key (read only) aK9dL2mQ7zX4vB8nR1tY6wE3",
    ],
    "S112": [
        "Qm9vA7xT2pL8wZ3vN6yR1kS4dF9gH2jK5lC8bM0n",
        "`Jk4Lp9Qr2St7Uv1Wx6Yz3Ab8Cd5Ef0Gh2Ij4Kl`",
        "  r8Tz2Qp6Wm1Xv4Ny9Lk3Jb7Hc5Gd0Fs2Ea8Uo6Ii",
    ],
    "S113": [
        "- Provider=SQLOLEDB;Data Source=erp01;Initial Catalog=ledger;User Id=erp;Password=Fj48#kq;",
        "- Host=pg.internal;Port=5432;Username=app;Password=Wint3rSun;Database=crm",
        "Server=localhost;Uid=root;Pwd=rootroot;",
    ],
}

LOOK_ALIKE_CASES: dict[str, list[str]] = {
    "S106": [
        "- The form's IBAN field wants 22 characters for DE",
        "- Ticket AB12 CDEF 3456 7890 12 closed",
        "- NL91 ABNA 0417 1643 01 was rejected: wrong check digits",
        "- part number XK42 9981 7730 0011 22 reordered",
    ],
    "S107": [
        "- Shipment 4012 8888 8888 1882 left the depot",
        "- ISBN 9780306406157 is the second edition",
        "- Phone: +1 415 555 0132 / 0133",
        "- Batch 1234 5678 9012 3456 processed in 12 s",
        # Public test card numbers (fewer than four distinct digits), allowed like EXAMPLE values; the
        # first run counted these two as held-out secrets it missed (docs/SECURITY.md).
        "- Mastercard 5555-5555-5555-4444, good through 03/2028",
        "her credit card 4111111111111111 expiry 10/30",
    ],
    "S108": [
        "- The code path for 2048 items is too slow",
        "- Postal code 75008 Paris",
        "- PIN the Docker image to 24.04",
        "- recovery finished after 1200 seconds",
        "- door 3 of 12 was left open",
        "- 2FA rollout reaches 4000 users next week",
        "- Safe harbour clause, section 1203",
    ],
    "S109": [
        "- Passport renewal costs 75 EUR since 2024",
        "- Policy 7 of the handbook: no laptops in the lab",
        "- Account balance: 12,430.55",
        "- Member count grew to 12000 this quarter",
        "- The insurance claim was filed on 2026-02-11",
    ],
    "S110": [
        '- She wrote: "the key is in the blue box"',
        "> the wifi dropped twice during the call",
        "- 'login page returns 502 since 09:40' says the alert",
        '- Docs: "password must have 12+ characters"',
    ],
    "S111": [
        "- Key metrics for 2026-Q1 in the dashboard",
        "- token limit raised to 200000 for claude-sonnet-4-5-20250929",
        "- The secret sauce: request-coalescing-with-backoff-v2",
        "- password-reset-email-template-2026 updated",
        "- key: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 (sha256 of the release)",
    ],
    "S112": [
        "3f786850e387550fdab836ed7e6dc881de23001b",
        "- ReleaseNotesGenerator2026ForTheMobileApp",
        "  https://example.org/a/very/long/path/segment",
        "- 550e8400-e29b-41d4-a716-446655440000",
    ],
    "S113": [
        "- Server=db01;Database=crm;Integrated Security=true;",
        "- Data Source=app.db;Password=;",
        "- Host=localhost;Username=user;Password=password;",
    ],
}
