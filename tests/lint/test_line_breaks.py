"""Invariants no line break or second value can break: a label at the end of a line and its value
at the start of the next, a value split under its label, a question in a script with its own
question mark, the second password of a line, words joined into a password, a login noun and its
pair, a document's number after a bracket or under its name. Each with look-alikes, then through
`memgit lint` on a committed note and a transcript."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memgit.lint.secrets import find_secrets
from tests.helpers import commit_all, memgit, write


def found(text: str) -> list[tuple[int, str]]:
    return [(hit.index, hit.value or "") for hit in find_secrets(text.split("\n"))]


def turns(*pairs: tuple[str, str]) -> str:
    return "\n".join(json.dumps({"role": role, "content": text}, ensure_ascii=False) for role, text in pairs)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # A sentence wrapped at a word: the label ends one line, its value starts the next.
        (
            "Voicemail from outside: call the office line, then * and the PIN\n4070#. Nobody listens to it.",
            (1, "4070#"),
        ),
        ("Die Haustür hat seit Montag den Türcode\n5821, bitte nicht weitergeben.", (1, "5821")),
        # A label's room ends in a number ("P2") before the colon: the value after it is still the code.
        ("- **Código nuevo sala de cultivos P2: 5813#** (cambiaron todos los códigos).", (0, "5813#")),
        # A value broken under its label (a post-it's line end), and a token with dots broken.
        ("If the app refuses, the password is\nKlidi-Rec-2026-\nXq7 (it wants a new one in July).", (2, "Xq7")),
        (
            "bearer token for the export:\neyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJrYXNz\n"
            "YXByby1hcGkiLCJpYXQiOjE3NzY0MDAwMDB9.Gt8yH03ToUNawodONdoLGLC-KNQ9P0wHHZn0byD6p6g",
            (2, "YXByby1hcGkiLCJpYXQiOjE3NzY0MDAwMDB9.Gt8yH03ToUNawodONdoLGLC-KNQ9P0wHHZn0byD6p6g"),
        ),
        # Words joined into a password right after their label, with no other sign.
        (
            "<!-- Router im Bootshaus (TP-Link), Admin-Passwort Leuchtfeuer-Bootshaus-22, nicht das WLAN -->",
            (0, "Leuchtfeuer-Bootshaus-22"),
        ),
        ("the laundry app password — the new one — is on the fridge: sorry, Labada_iloilo_24", (0, "Labada_iloilo_24")),
        # The old password and the new on one line: both.
        ("Ο παλιός κωδικός ήταν Eleni_1972 και ο νέος θα είναι Vlachou-E1-Kyklades!", (0, "Vlachou-E1-Kyklades!")),
        # A login noun and its pair.
        ("- POS manager login kostas.kyma / Xtapodi_sto_kar8ouni — he chose it himself", (0, "Xtapodi_sto_kar8ouni")),
        ("Zugangsdaten: mueller.k / Sommer-Haus_2024", (0, "Sommer-Haus_2024")),
        # A keypad code for several doors; a code with a letter under a line naming it.
        ("- Housekeeping master for all 14 doors: *55920# (two people only)", (0, "*55920#")),
        ("Box code — the office texts it to the courier only:\n`C-5096`", (1, "C-5096")),
        ("- Office safe (behind the desk, Yale):\n  6 2 8 1 4 7", (1, "6 2 8 1 4 7")),
        # A document's number after a bracket, and under its name.
        ("- Jonas' ID card (Personalausweis) LH3T7K9R2 — for the crew list", (0, "LH3T7K9R2")),
        ("- جواز السفر (passport), he wrote it himself:\n  A29184467", (1, "A29184467")),
        # A question in Greek ends in ";": the next turn answers it.
        (
            turns(("assistant", "Και ο κωδικός για το portal;"), ("user", "Aeg3an!Pay-Limn-2026")),
            (1, "Aeg3an!Pay-Limn-2026"),
        ),
        (
            turns(("assistant", "Για τον Mostafa: ο ΑΦΜ που του έβγαλε η ΔΟΥ;"), ("user", "176435863")),
            (1, "176435863"),
        ),
        # A value right after its label, then a dash and more words.
        ("- コインロッカー nº 47,暗証番号 8830 — malas da Tia Fernanda ficaram lá", (0, "8830")),
        # An identifier's acronym of its country (Argentina's CUIL).
        ("- titular Martín Souza Ferreyra, CUIL 20-34918275-1", (0, "20-34918275-1")),
        # A card number without its groups, after a card word in another language (Luhn holds).
        ("- karta firmowa: 4539148803436467", (0, "4539148803436467")),
        # A word that can be nothing but a password, with no label at all.
        ("- gov.br da Mari (nível ouro) → Gov#Mari80!br", (0, "Gov#Mari80!br")),
        ("define( 'DB_PASSWORD', 'Wp#db-2291xQ' );", (0, "Wp#db-2291xQ")),
        # lftp's user,password; WireGuard's pre-shared key (its public key is left alone).
        ("lftp -u pawel_tmp,'Hx4$wq9Z-kM2' ftps://ftp.example -e \"ls; bye\"", (0, "Hx4$wq9Z-kM2")),
        (
            "[Peer]\nPublicKey = Qx4yTn8s2LbC0vWmRz7eHk1JpFa9dGuE5oYiNc3tKsM=\n"
            "PresharedKey = Fz0pH7wQk2nVbL9eTs4xMr1CyJd6gUaO8iXhNq5tRe8=",
            (2, "Fz0pH7wQk2nVbL9eTs4xMr1CyJd6gUaO8iXhNq5tRe8="),
        ),
        # The label in the sentence before the question.
        (
            turns(
                ("assistant", "Ela vai precisar de uma senha provisória pro primeiro acesso. Qual você quer colocar?"),
                ("user", "Coloca Juli@Recep2026, que eu já falei pra ela de boca"),
            ),
            (1, "Juli@Recep2026"),
        ),
        # A command pasted into a turn, on its own line of the turn's text.
        (
            turns(
                ("user", "ok"),
                ("user", "rotated it:\n\ngh secret set CF_API_TOKEN --body xfNHYTNc9xPh3r33x3sJkpSXdh9rIGgERkwfpuYA"),
            ),
            (1, "xfNHYTNc9xPh3r33x3sJkpSXdh9rIGgERkwfpuYA"),
        ),
    ],
)
def test_a_secret_is_found_whatever_the_line_breaks(text: str, secret: tuple[int, str]) -> None:
    assert secret in found(text)


@pytest.mark.parametrize(
    "text",
    [
        # Wrapped prose that names a password or a code and gives none.
        "Reset the admin password before the demo; the\nsteps are in chapter 12 of the guide.",
        "Enter the PIN you chose when you set up the card.\n2 attempts are left before it locks.",
        "- The first item names the door code\n- 2024 was the year the lock was changed",
        # Products, standards and slugs near a password word.
        "Reset the password on Windows-Server-2019 hosts first.",
        "Password hashing uses AES-256-GCM and PBKDF2-HMAC-SHA256 with 600000 rounds.",
        "The password policy is in release-notes-2026 on the wiki.",
        # A login and its logout, a date after a passport's name, a question without a secret.
        "See the login / logout flow in chapter 3.",
        "- Passport scan: photo in the 03/04 log",
        # A number before a colon and one after it is a time, not a room and its code.
        "The PIN reset window is at 14: 30 on Fridays.",
        # A compute allocation's account is a project's name in lower case, not a bank account.
        "Allocation approved on the HDR grant: account **`hdr-2026-017`**, includes the highmem partition.",
        turns(("assistant", "Θέλεις να αλλάξουμε τον κωδικό;"), ("user", "Ναι, αύριο το πρωί.")),
        # Shortcuts, languages, colours, format strings, addresses, shipments: no bare password.
        "Use Ctrl+Shift+P to open the command palette.",
        "Works with C#/.NET 8 and F# 7.",
        "Brand colours: #3a7bd5 and #FF0000.",
        "PublicKey = Qx4yTn8s2LbC0vWmRz7eHk1JpFa9dGuE5oYiNc3tKsM=",
        "It relates to [[Bike maintenance 1#Weekly keep]] and [the plan](Plans/Road 2#Week3!) too.",
        "echo ${HOME}/bin2x! and $PATH",
        "printf('%s %d', name, count);",
        "Write to Ana.Pires2@example.com for access.",
        # A card or an IBAN whose checksum fails is a look-alike (the validators decide).
        "- karta firmowa: 5489 7710 3362 0195 · 08/28",
        "- pensja na PL27 1140 2004 0000 3902 7748 1265",
        # A path's "::" is no colon after a label (a sentence wrapped after "we pass").
        "To read the values of command line arguments we pass to\nit, we need the `std::env::args` function.",
        # A line break inside a code block is no wrapped sentence.
        "```\nexport PIN\n4070\n```",
    ],
)
def test_look_alikes_stay_clean(text: str) -> None:
    assert found(text) == []


def test_lint_names_a_wrapped_pin_and_a_split_password_in_a_committed_note(workspace: Path) -> None:
    log = "memory/2026-02-03.md"
    lines = [
        "# 2026-02-03",
        "",
        "Voicemail of the reception line: to listen from outside call the office, then * and the PIN",
        "4070#. Nobody listens to it, Ioana will from now on.",
        "",
        "- Her own user for the booking app; temp password (she must change it at first login):",
        "  Temp-Galini-04",
        "11! (copied from the post-it, the break is where it ends)",
        "",
        "- gov.br → Gov#Mari80!br",
        "- It relates to [[Bike maintenance 1#Weekly keep]], nothing secret.",
    ]
    write(workspace / log, "\n".join(lines) + "\n")
    session = "sessions/2026-02-03-portal.jsonl"
    write(
        workspace / session,
        turns(
            ("user", "Τώρα το back office, username galini84"),
            ("assistant", "Και ο κωδικός για το portal;"),
            ("user", "Aeg3an!Pay-Limn-2026"),
        )
        + "\n",
    )
    commit_all(workspace, "notes committed without hooks")
    proc = memgit(workspace, "lint", "--json", log, session, env={"MEMGIT_EMBEDDING": "none"})
    assert proc.returncode == 1, proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    assert sorted((f["path"], f["line"]) for f in findings) == [
        (log, 4),
        (log, 7),
        (log, 8),
        (log, 10),
        (session, 3),
    ]
    assert "4070" not in proc.stdout and "Aeg3an" not in proc.stdout and "Mari80" not in proc.stdout
