"""The forms a secret label takes written into other words (data for lint S117; pure).

German, Dutch, the Nordic languages, Finnish and Hungarian write compounds as one word: a password
or key word ends them ("Initialpasswort", "gastwachtwoord", "Oppsettnøkkel"), where a code word
never does ("Barcode", "Postleitzahl"). Arabic writes "and", "so", "with" and "for" onto the next
word ("وكلمة السر", "بالرمز", "للرمز"). `labelled.py` reads both into its label patterns.
"""

from __future__ import annotations

#: Password and key words that end compounds in the languages that write them as one word
#: (German, Dutch, the Nordic languages, Finnish, Hungarian).
ONE_WORD_TAILS: dict[str, tuple[str, ...]] = {
    "password": (
        "passwort",
        "kennwort",
        "wachtwoord",
        "lösenordet",
        "lösenord",
        "passordet",
        "passord",
        "adgangskoden",
        "adgangskode",
        "salasana",
        "jelszó",
        "jelszava",
    ),
    "key": ("schlüssel", "sleutel", "nøkkelen", "nøkkel", "nøglen", "nøgle", "nyckeln", "nyckel", "avain"),
}


def with_clitics(word: str) -> tuple[str, ...]:
    """An Arabic label and the forms it takes with "and", "so", "with/in" and "for" written onto it
    ("وكلمة السر", "بالرمز", "للرمز"): Arabic writes these as part of the next word."""
    if not "\u0600" <= word[:1] <= "\u06ff":
        return (word,)
    if word.startswith("ال"):
        return (word, "و" + word, "ف" + word, "ب" + word, "وب" + word, "ل" + word[1:], "ول" + word[1:])
    return (word, "و" + word, "ف" + word, "ب" + word, "ل" + word)
