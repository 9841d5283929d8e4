"""The secret corpus's kinds known by shape and context (lint S106-S113), and their look-alikes.

Generated like the rest of `bench/secrets_corpus.py`: each IBAN carries check digits computed
here (ISO 7064 mod 97-10) over a random account, each card number a Luhn digit over a random body
behind a real issuer prefix, every code and password is random. Each kind is written in several
formats and at least three wordings, as people log them. `RULE_OF` names the rule each secret kind
must be flagged with. The look-alikes are what notes hold that has the same shapes and is no
secret: order numbers, dates, versions, phone numbers, postcodes, hashes, UUIDs, prices, room
numbers, IBANs and cards whose checksum fails, documentation placeholders.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable

Template = Callable[[random.Random], str]

DIGITS = string.digits
UPPER = string.ascii_uppercase
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"
LOWER_DIGITS = string.ascii_lowercase + string.digits


def _r(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


# --- IBANs and cards ---------------------------------------------------------------------------

_BBAN: dict[str, Callable[[random.Random], str]] = {
    "DE": lambda r: _r(r, DIGITS, 18),
    "GB": lambda r: _r(r, UPPER, 4) + _r(r, DIGITS, 14),
    "NL": lambda r: _r(r, UPPER, 4) + _r(r, DIGITS, 10),
    "AT": lambda r: _r(r, DIGITS, 16),
    "CH": lambda r: _r(r, DIGITS, 17),
    "IE": lambda r: _r(r, UPPER, 4) + _r(r, DIGITS, 14),
}


def _mod97(text: str) -> int:
    return int("".join(str(int(c, 36)) for c in text)) % 97


def iban(rng: random.Random, *, valid: bool = True) -> str:
    country = rng.choice(sorted(_BBAN))
    bban = _BBAN[country](rng)
    check = 98 - _mod97(bban + country + "00")
    if not valid:
        check = (check + rng.randint(1, 96)) % 97 or 1  # any other pair fails mod 97
        check = check if check > 1 else 2
    return f"{country}{check:02d}{bban}"


def grouped(value: str, size: int = 4, sep: str = " ") -> str:
    return sep.join(value[i : i + size] for i in range(0, len(value), size))


def _luhn_digit(body: str) -> str:
    total = 0
    for index, char in enumerate(reversed(body)):
        n = int(char)
        if index % 2 == 0:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return str((10 - total % 10) % 10)


def card(rng: random.Random, *, valid: bool = True) -> tuple[str, str]:
    """(number as written, issuer): Visa and Mastercard 16 digits in fours, Amex 15 in 4-6-5."""
    issuer = rng.choice(["visa", "mastercard", "amex"])
    prefix = {"visa": "4", "mastercard": str(rng.randint(51, 55)), "amex": rng.choice(["34", "37"])}[issuer]
    length = 15 if issuer == "amex" else 16
    body = prefix + _r(rng, DIGITS, length - len(prefix) - 1)
    digit = _luhn_digit(body)
    if not valid:
        digit = str((int(digit) + rng.randint(1, 9)) % 10)
    number = body + digit
    style = rng.choice(["space", "dash", "plain"])
    if style == "plain":
        return number, issuer
    sep = " " if style == "space" else "-"
    if issuer == "amex":
        return f"{number[:4]}{sep}{number[4:10]}{sep}{number[10:]}", issuer
    return grouped(number, 4, sep), issuer


def _expiry(rng: random.Random) -> str:
    return f"{rng.randint(1, 12):02d}/{rng.choice(['27', '28', '29', '2030', '31'])}"


def _password(rng: random.Random) -> str:
    words = ["Seeblick", "Harbor", "Lantern", "Kiwi", "Nordlicht", "Copper", "Sol", "Brook"]
    return f"{rng.choice(words)}{rng.choice('!#-_.')}{rng.randint(10, 9999)}{rng.choice(['', 'x', 'Q'])}"


def _code_digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(DIGITS) for _ in range(n))


def _otp(rng: random.Random) -> str:
    six = _code_digits(rng, 6)
    return rng.choice([six, f"{six[:3]} {six[3:]}", f"{six[:3]}-{six[3:]}"])


def _recovery_list(rng: random.Random) -> str:
    style = rng.choice(["dash", "digits", "plain"])
    if style == "dash":
        codes = [f"{_r(rng, LOWER_DIGITS, 4)}-{_r(rng, LOWER_DIGITS, 4)}" for _ in range(4)]
        codes = [c if any(ch.isdigit() for ch in c) else c[:-1] + "7" for c in codes]
    elif style == "digits":
        codes = [f"{_code_digits(rng, 4)} {_code_digits(rng, 4)}" for _ in range(4)]
    else:
        codes = [_r(rng, UPPER, 5) + _code_digits(rng, 5) for _ in range(4)]
    return " ".join(codes)


def _pin(rng: random.Random) -> str:
    pin = _code_digits(rng, 4)
    return pin if len(set(pin)) > 1 else "4" + pin[1:]


def _member_id(rng: random.Random) -> str:
    return rng.choice(
        [
            rng.choice(UPPER) + _code_digits(rng, 9),
            f"{_r(rng, UPPER, 3)}-{_code_digits(rng, 3)} {_code_digits(rng, 3)} {_code_digits(rng, 3)}",
            f"{_r(rng, UPPER, 2)}-{_code_digits(rng, 4)}-{_code_digits(rng, 4)}",
            _code_digits(rng, 8),
        ]
    )


def _passport(rng: random.Random) -> str:
    return rng.choice(
        [
            rng.choice(UPPER) + _r(rng, UPPER + DIGITS, 2) + _code_digits(rng, 6),
            _code_digits(rng, 9),
            _r(rng, UPPER, 2) + _code_digits(rng, 7),
        ]
    )


def _mixed_token(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    """A random token holding upper, lower and digits, as issued keys do."""
    token = list(_r(rng, alphabet, n))
    token[1], token[5], token[9] = rng.choice(UPPER), rng.choice(string.ascii_lowercase), rng.choice(DIGITS)
    return "".join(token)


# --- the secrets -------------------------------------------------------------------------------

SECRETS: dict[str, Template] = {
    "IBAN": lambda r: r.choice(
        [
            f"- Rent is transferred to {grouped(iban(r))} (landlord, Mrs Keller)",
            f"- Deposit for the flat goes into {iban(r)}, reference flat 3B",
            f"- Gift pool: send your share to Lena's account {grouped(iban(r))} by Friday",
            f"- Supplier bank details: IBAN {iban(r).lower() if r.random() < 0.3 else iban(r)} BIC GENODEF1XYZ",
        ]
    ),
    "payment card": lambda r: (
        lambda c: r.choice(
            [
                f"- Company {c[1]} card {c[0]}, valid thru {_expiry(r)}, CVV {_code_digits(r, 3)}",
                f"- Booked the hotel with the card {c[0]} exp {_expiry(r)}",
                f"- Dad's debit card {c[0]} (expires {_expiry(r)}), security code {_code_digits(r, 3)}",
                f"- For the flight refund they need {c[0]} {_expiry(r)} {_code_digits(r, 3)}",
            ]
        )
    )(card(r)),
    "one-time code": lambda r: r.choice(
        [
            f"- The bank phoned and read out the one-time code {_otp(r)}",
            f"- Verification code for the tax portal login: {_otp(r)}",
            f"- SMS code {_otp(r)} arrived, valid for ten minutes",
            f"- 2FA for the router admin page is {_otp(r)} right now",
            f"- Use {_code_digits(r, 6)} as the OTP when the portal asks",
        ]
    ),
    "recovery codes": lambda r: r.choice(
        [
            f"- GitHub recovery codes: {_recovery_list(r)}",
            f"- Backup codes for the Google account {_recovery_list(r)}",
            f"- Printed the 2FA scratch codes ({_recovery_list(r)}) and put them in the drawer",
        ]
    ),
    "door, alarm or safe code": lambda r: r.choice(
        [
            f"- Door code for the office: {_pin(r)}#",
            f"- The alarm is disarmed with {_pin(r)} at the panel by the stairs",
            f"- The keypad at the garden gate takes {_pin(r)}",
            f"- Safe combination is {r.randint(10, 39)}-{r.randint(10, 39)}-{r.randint(10, 39)}",
            f"- Lockbox with the spare key, code {_pin(r)}",
            f"- {_pin(r)} is the entry code for the bike shed",
        ]
    ),
    "PIN": lambda r: r.choice(
        [
            f"- New SIM card PIN {_pin(r)}",
            f"- Changed the card PIN to {_pin(r)} today",
            f"- Voicemail PIN: {_pin(r)}",
            f"- Insurance hotline asks for my phone PIN, it's {_pin(r)}",
        ]
    ),
    "member, policy or passport number": lambda r: r.choice(
        [
            f"- Health insurance member number {_member_id(r)}",
            f"- Car insurance policy no. {_member_id(r)}",
            f"- Passport number {_passport(r)}",
            f"- My membership ID at the climbing gym is {_member_id(r)}",
            f"- Home contents insurance: policy number {_member_id(r)}",
            f"- Passport: {_passport(r)}, renew before the trip",
        ]
    ),
    "credential in a quoted message": lambda r: r.choice(
        [
            f'- Tom texted: "wifi is {_password(r)}"',
            f"- Lea wrote 'the router pw: {_password(r)}' for the guests",
            f"> Message from the host: WLAN key {_password(r)} (network Casa Sol)",
            f"- Ben's mail said “the login for the shared drive is {_password(r)}”",
        ]
    ),
    "token after a key word": lambda r: r.choice(
        [
            f"- AWS secret key {_mixed_token(r, 40, B64)}",
            f"- the deploy token is {_mixed_token(r, 32)}",
            f"- Datadog API key {_r(r, HEX, 32)} for staging",
            f"- secret line {_mixed_token(r, 40, B64)}",
            f"- credential for the backup bucket → {_mixed_token(r, 24)}",
        ]
    ),
    "bare key on a line": lambda r: r.choice(
        [
            _mixed_token(r, 40, B64),
            f"- {_mixed_token(r, 40, B64)}",
            f"`{_mixed_token(r, 40, B64)}`",
            f"    {_mixed_token(r, 32)}",
        ]
    ),
    "connection string": lambda r: r.choice(
        [
            f"- Server=tcp:sql-prod.kestrel.net,1433;Initial Catalog=billing;User ID=app;Password={_password(r)};",
            f"- ODBC: Driver={{PostgreSQL}};Server=10.0.3.7;Uid=report;Pwd={_password(r)};",
            f"- jdbc:sqlserver://db1:1433;databaseName=crm;user=svc;password={_password(r)}",
            f"- Data Source=crm.local;User Id=sa;Password={_password(r)}",
        ]
    ),
}

RULE_OF: dict[str, str] = {
    "IBAN": "S106",
    "payment card": "S107",
    "one-time code": "S108",
    "recovery codes": "S108",
    "door, alarm or safe code": "S108",
    "PIN": "S108",
    "member, policy or passport number": "S109",
    "credential in a quoted message": "S110",
    "token after a key word": "S111",
    "bare key on a line": "S112",
    "connection string": "S113",
}


# --- the look-alikes ---------------------------------------------------------------------------


def _date(rng: random.Random) -> str:
    return f"20{rng.randint(24, 30)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _order16(rng: random.Random) -> str:
    return str(rng.randint(1, 9)) + _code_digits(rng, 15)


LOOK_ALIKES: dict[str, Template] = {
    "order number": lambda r: r.choice(
        [
            f"- Order #{_code_digits(r, 10)} shipped on Tuesday",
            f"- Amazon order 302-{_code_digits(r, 7)}-{_code_digits(r, 7)} arrives Friday",
            f"- Order no. {_order16(r)} was refunded",
        ]
    ),
    "ISO date": lambda r: r.choice(
        [
            f"- Moved the review to {_date(r)}",
            f"- Code freeze starts {_date(r)}",
            f"- Backup ran on {_date(r)} at 03:00",
            f"- PIN reset letter sent {_date(r)}",
        ]
    ),
    "version string": lambda r: r.choice(
        [
            f"- Upgraded the router firmware to v{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 99)}",
            f"- pin requests to 2.{r.randint(20, 40)}.{r.randint(0, 9)} until the fix lands",
            f"- key rotation script {r.randint(1, 4)}.{r.randint(0, 9)}.{r.randint(0, 9)} is deployed",
        ]
    ),
    "phone number": lambda r: r.choice(
        [
            f"- Call the plumber on +49 30 {_code_digits(r, 4)} {_code_digits(r, 4)}",
            f"- Insurance hotline 0800 {_code_digits(r, 3)} {_code_digits(r, 4)}",
            f"- Taxi company: ({r.randint(200, 999)}) {_code_digits(r, 3)}-{_code_digits(r, 4)}",
        ]
    ),
    "postcode": lambda r: r.choice(
        [
            f"- Ship the parcel to {r.randint(10000, 99999)} Berlin",
            f"- The zip code is {r.randint(10000, 99999)}",
            f"- Post code SW{r.randint(1, 9)}A {r.randint(1, 9)}AA for the London office",
        ]
    ),
    "commit hash near key words": lambda r: r.choice(
        [
            f"- Reverted {_r(r, HEX, 40)} (the key fix broke the build)",
            f"- The token refresh bug was fixed in {_r(r, HEX, 12)}",
            f"- Cherry-picked {_r(r, HEX, 40)} onto the release branch",
        ]
    ),
    "UUID near key words": lambda r: (
        lambda u: r.choice(
            [
                f"- The secret's version id is {u}",
                f"- Token request id {u} failed twice",
                f"- Session {u} expired",
            ]
        )
    )(f"{_r(r, HEX, 8)}-{_r(r, HEX, 4)}-4{_r(r, HEX, 3)}-a{_r(r, HEX, 3)}-{_r(r, HEX, 12)}"),
    "price": lambda r: r.choice(
        [
            f"- Paid €{r.randint(1, 9)},{r.randint(100, 999)}.00 for the card reader",
            f"- Budget {r.randint(1, 9)} {r.randint(100, 999)} EUR for the alarm system",
            f"- The safe costs ${r.randint(100, 999)}.99 at the hardware store",
        ]
    ),
    "room number": lambda r: r.choice(
        [
            f"- Meeting in room {r.randint(1, 5)}.{r.randint(100, 999)}",
            f"- Room {r.randint(1, 5)}B-{r.randint(100, 999)} has the new keypad lock",
            f"- Desk {r.randint(1000, 4999)} on floor {r.randint(1, 9)}",
        ]
    ),
    "IBAN with a wrong checksum": lambda r: r.choice(
        [
            f"- IBAN {grouped(iban(r, valid=False))} bounced, typo in the form",
            f"- Their account {iban(r, valid=False)} is not valid, asked again",
            f"- The form showed {grouped(iban(r, valid=False))} as an example",
        ]
    ),
    "card number with a wrong checksum": lambda r: (
        lambda c: r.choice(
            [
                f"- Card {c} exp {_expiry(r)} was declined: typo",
                f"- Test card in the sandbox docs: {c}",
                f"- The debit card {c} number on the letter is misprinted",
            ]
        )
    )(card(r, valid=False)[0]),
    "documentation placeholder": lambda r: r.choice(
        [
            "- password: password",
            "- Passwort: passwort",
            "- token: <token>",
            "- DATABASE_URL=postgres://user:pass@host:5432/db",
            "- api_key = example",
            "- Set the PIN to <pin> in the form",
            "- IBAN: DEXX XXXX XXXX XXXX XXXX XX",
            "- card number: XXXX XXXX XXXX 1234",
            "- Server=myserver;Database=mydb;User Id=user;Password=<password>;",
            "- the wifi key is <wifi-key>",
            '- secret: "YOUR_SECRET_HERE"',
            "- AWS secret key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ]
    ),
    "status and error codes": lambda r: r.choice(
        [
            f"- The proxy answered with status code {r.choice([200, 404, 502, 503])}",
            f"- Job died with exit code {r.choice([1, 2, 137, 143])} (OOM)",
            f"- Promo code SPRING{r.randint(10, 40)} gives ten percent off",
            f"- Area code 0{r.randint(20, 99)} is the old Berlin one",
            f"- Error code E{r.randint(1000, 9999)} on the dishwasher means the filter",
        ]
    ),
    "code talk": lambda r: r.choice(
        [
            f"- Code review with Ana at {r.randint(9, 17)}:00",
            f"- The source code of release {r.randint(2020, 2026)} is archived",
            "- Pair on the login code tomorrow; the 2FA flow needs tests",
            f"- {r.randint(20, 400)} lines of code removed from the billing module",
        ]
    ),
    "backup and recovery talk": lambda r: r.choice(
        [
            f"- Backup of {r.randint(1, 9)},{r.randint(100, 999)} files took {r.randint(2, 59)} minutes",
            f"- Recovery took {r.randint(2, 9)} hours after the outage",
            f"- Backup size is {r.randint(10, 900)} GB now",
            f"- Recovery point objective: {r.randint(1, 24)} hours",
        ]
    ),
    "membership and policy talk": lambda r: r.choice(
        [
            f"- Member since {r.randint(2005, 2025)}",
            f"- Policy review in Q{r.randint(1, 4)} {r.randint(2025, 2027)}",
            f"- {r.randint(3, 40)} members joined the book club",
            f"- Passport expires {_date(r)}",
            f"- Insurance premium {r.randint(1, 2)},{r.randint(100, 999)} EUR a year",
        ]
    ),
    "key and token talk": lambda r: r.choice(
        [
            f"- The key takeaway from the {r.randint(2024, 2026)} planning: fewer meetings",
            f"- Key result: p95 under {r.randint(100, 900)} ms",
            f"- Token budget {r.randint(8, 200)}000 per run",
            f"- Rotated the deploy token on {_date(r)}; the new one is in Vault",
        ]
    ),
    "quoted message without a secret": lambda r: r.choice(
        [
            '- Ana said: "the wifi is slow again"',
            "- He wrote 'the key is under the mat'",
            '- "Password reset links expire after 24 hours," says the policy',
            f'- Mum texted: "landing at {r.randint(10, 23)}:{r.randint(10, 59)}, gate B{r.randint(10, 60)}"',
        ]
    ),
    "identifier alone on a line": lambda r: r.choice(
        [
            f"- {_r(r, HEX, 40)}",
            f"KestrelBillingExportJob{r.randint(2020, 2029)}Handler",
            f"- kestrel-billing-exports-{_r(r, HEX, 8)}-eu-west-1",
            f"    {_r(r, HEX, 8)}-{_r(r, HEX, 4)}-4{_r(r, HEX, 3)}-a{_r(r, HEX, 3)}-{_r(r, HEX, 12)}",
        ]
    ),
    "tracking and reference numbers": lambda r: r.choice(
        [
            f"- DHL tracking {_code_digits(r, 20)}",
            f"- UPS 1Z{_r(r, UPPER + DIGITS, 6)}{_code_digits(r, 10)}",
            f"- ISBN 978-3-{r.randint(10, 99)}-{_code_digits(r, 6)}-{r.randint(0, 9)}",
            f"- Invoice RE-{r.randint(2024, 2026)}-{_code_digits(r, 5)}",
        ]
    ),
    "times and durations": lambda r: r.choice(
        [
            f"- Alarm set for {r.randint(5, 8):02d}:{r.choice(['00', '15', '30', '45'])}",
            f"- The safe mode boot took {r.randint(1000, 9999)} ms",
            f"- Door opens at {r.randint(7, 9)}:30, code of conduct on the wall",
        ]
    ),
    "network identifiers": lambda r: (
        f"- Router at 192.168.{r.randint(0, 255)}.1, MAC 3c:22:fb:{_r(r, HEX, 2)}:{_r(r, HEX, 2)}:{_r(r, HEX, 2)}"
    ),
    "booking references": lambda r: r.choice(
        [
            f"- Flight LH {r.randint(100, 2999)} at 07:15, booking ref {_r(r, UPPER + DIGITS, 6)}",
            f"- Customer number {_code_digits(r, 6)} at the electricity company",
            f"- Account {r.randint(2, 99)} was archived",
        ]
    ),
    "sprint and ticket ids": lambda r: r.choice(
        [
            f"- Sprint {r.randint(2024, 2026)}-W{r.randint(10, 52)} planning done",
            f"- Ticket PROJ-{r.randint(1000, 9999)} closes the token refresh bug",
            f"- Issue #{r.randint(100, 9999)}: the PIN pad UI flickers",
        ]
    ),
}
