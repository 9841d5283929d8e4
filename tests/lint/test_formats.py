"""Credentials found by a format someone else defined, by a key's words, by a compound label, by a
card's block and by a table row's first cell, and the notes a cut-off key no longer hides: one
secret and its look-alikes each, through the rules every output redacts by (`find_secrets`), then
through `memgit lint` on a real repository."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memgit.lint.secrets import find_secrets
from tests.helpers import commit_all, memgit, write


def values(text: str) -> list[str]:
    return [hit.value or "" for hit in find_secrets(text.split("\n"))]


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # A Wi-Fi QR payload: the key, not the network's name.
        ("Scan this at the door: WIFI:T:WPA;S:Atelier_5G;P:m3lon-Kz9x;H:false;;", "m3lon-Kz9x"),
        # An authenticator app's setup key as it shows it, in either case.
        (
            "Setup key if the phone dies: h7dq w2mx pa4k zr6t yu3c bn5e lq2j vw7s",
            "h7dq w2mx pa4k zr6t yu3c bn5e lq2j vw7s",
        ),
        ("GH 2FA: H7DQ W2MX PA4K ZR6T YU3C BN5E LQ2J VW7S", "H7DQ W2MX PA4K ZR6T YU3C BN5E LQ2J VW7S"),
        # A product licence key.
        ("- Affinity Photo licence → 7KQ2M-X9P4L-R3TZ8-WD6NB-H2CJ5", "7KQ2M-X9P4L-R3TZ8-WD6NB-H2CJ5"),
        # Passwords in a command's own syntax.
        ("    smbclient //nas.local/share -U marta%Tulpe-88x", "Tulpe-88x"),
        ("vercel deploy --prod --token Qm3xT9vLpR2sW8kZ4yHn6b", "Qm3xT9vLpR2sW8kZ4yHn6b"),
        # A key whose parts are words (front matter, YAML, an environment file).
        ("office_wlan_psk: Hafen-Licht-204", "Hafen-Licht-204"),
        ('nasAdminPw = "Ruf7!kqe2"', "Ruf7!kqe2"),
        ("gartentor_code: 6630", "6630"),
        # A Django secret key as Django makes one.
        (
            "<!-- old admin SECRET, until the vault → k2!v9s@7m(p=q4w+z8e#x1r^t6y)u3i$o5a&s0d%f9g*h2j-l8 -->",
            "k2!v9s@7m(p=q4w+z8e#x1r^t6y)u3i$o5a&s0d%f9g*h2j-l8",
        ),
        # Three groups of a licence key beside a licence word.
        ("- Topaz (licence perpétuelle) : numéro de licence TPZ048-KQ7M2X-R91WLS", "TPZ048-KQ7M2X-R91WLS"),
        # A passphrase of words after its label.
        ("passphrase : hibou Bleu sur la Tour 2031", "hibou Bleu sur la Tour 2031"),
        # A login and its password after a sign-in verb, in two languages.
        ("She signs in with office and Harbour!Gate#58 every morning", "Harbour!Gate#58"),
        ("il se connecte avec jules / Quai-Branly-77, c'est bien ça ?", "Quai-Branly-77"),
        # A lock "set to" its code, a key word right before its value in alt text.
        ("Le cadenas du garage est sur 6274, comme avant.", "6274"),
        (
            '![card by the door, Wi-Fi "gite-nord" key Velo-4417-rando, check-out 11:00](img/card.jpg)',
            "Velo-4417-rando",
        ),
        # A signed URL's signature, a passport's machine-readable zone, a storage account's key.
        (
            "https://media.example.com/a.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=604800"
            "&X-Amz-Signature=3b7e1f9a2c4d6e8f0a1b3c5d7e9f1a2b4c6d8e0f2a4b6c8d0e2f4a6b8c0d2e4f&X-Amz-SignedHeaders=host",
            "3b7e1f9a2c4d6e8f0a1b3c5d7e9f1a2b4c6d8e0f2a4b6c8d0e2f4a6b8c0d2e4f",
        ),
        ("KX48291735GRC9104222M3308154<<<<<<<<<<<<<<00", "KX48291735GRC9104222M3308154<<<<<<<<<<<<<<00"),
        ("export B2_ACCOUNT_KEY=K005Rz8vQm2Lp7Tx9Wd4Hs6Jb1Nc3Ka", "K005Rz8vQm2Lp7Tx9Wd4Hs6Jb1Nc3Ka"),
        # A value handed to a secret store; a private key written as base64.
        (
            "gh secret set CF_API_TOKEN --repo hotel/site --body xfNHYTNc9xPh3r33x3sJkpSXdh9rIGgERkwfpuYA",
            "xfNHYTNc9xPh3r33x3sJkpSXdh9rIGgERkwfpuYA",
        ),
        ("kubectl create secret generic db --from-literal=password=Hq7vK2mZ9xLp", "Hq7vK2mZ9xLp"),
        (
            "DEPLOY_KEY_B64=LS0tLS1CRUdJTiBPUEVOU1NIIFBSSVZBVEUgS0VZLS0tLS0KYjNCbGJuTnphQzFyWlhrdGRqRUFBQUFBQkc1dmJtVUFBQUFFYm05dVpRQUFBQUFBQUFBQkFBQUFNd0FBQUF0emMyZ3RaVwotLS0tLUVORCBPUEVOU1NIIFBSSVZBVEUgS0VZLS0tLS0K",
            "LS0tLS1CRUdJTiBPUEVOU1NIIFBSSVZBVEUgS0VZLS0tLS0KYjNCbGJuTnphQzFyWlhrdGRqRUFBQUFBQkc1dmJtVUFBQUFFYm05dVpRQUFBQUFBQUFBQkFBQUFNd0FBQUF0emMyZ3RaVwotLS0tLUVORCBPUEVOU1NIIFBSSVZBVEUgS0VZLS0tLS0K",
        ),
        # A compound label of a compounding language.
        ("Abholcode laut SMS: 5184 2290", "5184 2290"),
        ("Der Spindcode im Studio ist 7391.", "7391"),
        # A word that can be nothing but a password, alone under the line that announces it.
        ("Staff network changed, I noted it as:\n\n  Grafeio!Limn#7731", "Grafeio!Limn#7731"),
        ("de kluiscode is 2854", "2854"),
    ],
)
def test_each_format_finds_its_secret(text: str, secret: str) -> None:
    assert secret in values(text)


@pytest.mark.parametrize(
    "text",
    [
        "WIFI:T:WPA;S:Atelier;P:<password>;;",  # a documented placeholder
        "Fingerprint: 7D2A 91C4 0E55 3B8F 2A61 C9E0 4F17 8B3D 6A92 E015",  # hex: base32 has no 0, 1, 8, 9
        "the quick brown fox jumps over the lazy dog and then some more words",
        "Request id 7c1e3a52-0d4b-4b7e-9a61-22f0c8d4e915",  # a UUID: groups of different lengths
        "Ticket ORDER-2026-0001-ABCD-EFGH",  # groups of letters only or digits only
        "GPG 1A2B-3C4D-5E6F-7A8B",  # all hex: a fingerprint's shape
        "Licence: XXXXX-XXXXX-XXXXX-XXXXX-XXXXX",  # a placeholder
        "smbclient //nas.local/share -U marta%PASSWORD",
        'gh secret set CF_API_TOKEN --body "$CF_TOKEN"',  # a variable, not a value
        "gh secret set NAME --body <your-token-here>",
        "PUB_B64=LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0KTUZrd0V3WUhLb1pJemowQ0FRWUlLb1pJemowREFRY0RRZ0FFcTJWeAotLS0tLUVORCBQVUJMSUMgS0VZLS0tLS0K",  # a public key's base64
        "Noted it as:\n\n  Release-Notes-2026",  # words and a year alone on a line: no mark
        "Run this:\n\n```\nRelease-Notes-2026\n```",  # a line of a code block, no mark
        "npm publish --token $NPM_TOKEN",
        "zip_code: 80331",
        "exit_code: 1301",
        "password_min_length: 12",
        "pin_count: 4",
        "Postleitzahl 80331, Fehlercode 4041, Statuscode 5030",
        "Transportcode: 7712",  # no head of a thing a code opens
        "Gutscheincode: SOMMER2026",
        "some-kebab-case-slug-with-1-2-3-4-numbers-in-it-ok",  # a slug: no Django key
        "Order ref ABC123-DEF456-GHI789 shipped",  # three groups, no licence word
        "Passphrase: use four random words, like the comic says",  # no capital inside, no digit
        "Log in with GitHub and Google accounts",
        "sign in with SSO and 2FA-2024",
        "L898902C36UTO7408122F1204159ZE184226B<<<<<10",  # ICAO's specimen passport
        "KX48291736GRC9104222M3308154<<<<<<<<<<<<<<00",  # a check digit that does not hold
        "export SSH_PUBLIC_KEY_FILE=~/.ssh/id_ed25519.pub",
        '  "hashed_password": "fakehashedsecret"',  # a key names the field; the value is no password's shape
        '<abbr title="Mozilla Developer Network - Mozilla-Entwicklernetzwerk: Dokumentation">MDN</abbr>',
    ],
)
def test_look_alikes_of_each_format_are_left_alone(text: str) -> None:
    assert values(text) == []


def test_a_cards_expiry_and_security_code_on_the_lines_below_it() -> None:
    block = ["```text", "Card number : 4539 1488 0343 6467", "Expiry      : 11/28", "CVC         : 417", "```"]
    assert {"11/28", "417"} <= set(values("\n".join(block)))
    prose = ["- Paid with the card 4539 1488 0343 6467 for the hotel.", "- Next review on 11/28 with the team."]
    assert "11/28" not in values("\n".join(prose))  # a sentence below a card is no card detail


def test_a_label_over_a_slash_and_recovery_codes_with_a_short_prefix() -> None:
    label = ["- Mot de passe du portail cantine / périscolaire :", "  Marronnier.Cour.2031"]
    assert values("\n".join(label)) == ["Marronnier.Cour.2031"]
    codes = [
        "Codes de secours Synology (chacun une seule fois) :",
        "",
        "```text",
        "NAS-48QK-7TRM",
        "NAS-2W9P-XC4D",
        "```",
    ]
    assert values("\n".join(codes)) == ["NAS-48QK-7TRM", "NAS-2W9P-XC4D"]


def test_a_table_rows_first_cell_names_its_identifier() -> None:
    table = ["| Document | Numéro | Expire |", "|---|---|---|", "| Passeport FR | 21AZ74016 | 2030-04 |"]
    assert "21AZ74016" in values("\n".join(table))
    plain = ["| Document | Numéro | Expire |", "|---|---|---|", "| Facture EDF | 2026-118 | 2030-04 |"]
    assert values("\n".join(plain)) == []


def test_a_country_column_of_places_names_each_rows_country() -> None:
    """A staff table whose column says where each person is from ("Varna, BG"): each row's number
    is checked by that country's validator, as under a column of bare codes."""
    table = [
        "| name | from | role | papers |",
        "|---|---|---|---|",
        "| Desi P. | Varna, BG | housekeeping | 9203142086 |",
        "| Ioana P. | Cluj (RO) | reception | 2950314072186 |",
        "| Marco B. | Bari, IT | bar | 9203142087 |",  # no Italian number, and a bad EGN digit
    ]
    assert values("\n".join(table)) == ["9203142086", "2950314072186"]


def test_a_key_cut_short_hides_only_its_own_lines() -> None:
    """A private key pasted in part ("the start, to compare") has no END line: its body is its
    base64 lines, and a password further down the note is found on its own line."""
    note = [
        "```",
        "-----BEGIN RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEAq3Zb7yJ0vLkPz4QmX9sT2wVn8RfHc1dGk6uJa5Ye0iOp",
        "... (cut)",
        "```",
        "",
        "## Backup account password: Winter-Quay!58",
        "",
        "- Known errors: code erreur 4403 means the quota is full",
    ]
    hits = find_secrets(note)
    assert {h.index for h in hits if h.code == "S101"} == {1, 2}
    assert [(h.index, h.value) for h in hits if h.code != "S101"] == [(6, "Winter-Quay!58")]


def test_lint_names_them_in_a_committed_note(workspace: Path) -> None:
    log = "memory/2026-01-06.md"
    lines = [
        "# 2026-01-06",
        "",
        "- Guest Wi-Fi card: WIFI:T:WPA;S:Atelier_5G;P:m3lon-Kz9x;;",
        "- Affinity Photo licence → 7KQ2M-X9P4L-R3TZ8-WD6NB-H2CJ5",
        "- Der Spindcode im Studio ist 7391.",
        "- Fingerprint: 7D2A 91C4 0E55 3B8F 2A61 C9E0 4F17 8B3D 6A92 E015",
    ]
    write(workspace / log, "\n".join(lines) + "\n")
    commit_all(workspace, "a log committed without hooks")
    proc = memgit(workspace, "lint", "--json", log, env={"MEMGIT_EMBEDDING": "none"})
    assert proc.returncode == 1, proc.stderr
    assert sorted(f["line"] for f in json.loads(proc.stdout)["findings"]) == [3, 4, 5]
    assert "m3lon-Kz9x" not in proc.stdout and "7391" not in proc.stdout


def test_the_cheap_test_of_a_compound_sees_every_tail() -> None:
    from memgit.lint.labelled import _GLUED_TAIL
    from memgit.lint.labels import COMPOUND_TAILS

    assert all(_GLUED_TAIL.search("Spind" + tail) for tail in COMPOUND_TAILS)
