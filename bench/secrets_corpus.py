"""A labelled corpus of memory notes: realistic secrets, and look-alikes that are not secrets.

Every value is generated (seeded random, the right alphabet and length for its kind), so no real
credential is in this repository. Each template yields `variants` notes written the way an agent
or a person logs things in a daily log: prose around the value, sometimes a config line or a shell
command. Used by `bench/secrets_compare.py` and by the lint's tests.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

from bench import secrets_corpus_shapes as shapes

UPPER_DIGITS = string.ascii_uppercase + string.digits
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"


@dataclass(frozen=True)
class Sample:
    kind: str  # what it is, e.g. "GitHub token" or "commit hash"
    secret: bool  # True: a credential a reviewer would want out of memory
    text: str


def _r(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _jwt(rng: random.Random) -> str:
    head = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = _b64url(
        json.dumps({"sub": str(rng.randint(1000, 99999)), "name": "svc-billing", "iat": 1767225600}).encode()
    )
    return f"{head}.{body}.{_r(rng, URLSAFE, 43)}"


def _password(rng: random.Random) -> str:
    words = ["Harbor", "Quokka", "Lantern", "Copper", "Maple", "Orbit", "Tundra", "Falcon"]
    return f"{rng.choice(words)}{rng.choice('!#%&*$')}{rng.randint(10, 9999)}{rng.choice(words).lower()}"


def _pem(kind: str, rng: random.Random) -> str:
    body = _r(rng, B64, 64)
    return f"-----BEGIN {kind}-----\n{body}\n{_r(rng, B64, 64)}\n-----END {kind}-----"


Template = Callable[[random.Random], str]

SECRETS: dict[str, Template] = {
    "AWS access key id": lambda r: f"- Staging deploy uses access key AKIA{_r(r, UPPER_DIGITS, 16)} (ops account).",
    "AWS secret access key": lambda r: f"- Put in ~/.aws/credentials: aws_secret_access_key = {_r(r, B64, 40)}",
    "GitHub token": lambda r: f"- Bob gave me a token for the CI bot: ghp_{_r(r, ALNUM, 36)}",
    "GitHub fine-grained token": lambda r: (
        f"- New PAT for the docs repo: github_pat_11{_r(r, UPPER_DIGITS, 20)}_{_r(r, ALNUM, 59)}"
    ),
    "GitLab token": lambda r: f"- GitLab runner registration: glpat-{_r(r, URLSAFE, 20)}",
    "Slack bot token": lambda r: (
        f"- Slack bot token is xoxb-{r.randint(10**11, 10**12)}-{r.randint(10**11, 10**12)}-{_r(r, ALNUM, 24)}"
    ),
    "Slack webhook": lambda r: (
        f"- Alerts go to https://hooks.slack.com/services/T{_r(r, UPPER_DIGITS, 8)}/B{_r(r, UPPER_DIGITS, 10)}/"
        f"{_r(r, ALNUM, 24)}"
    ),
    "Stripe secret key": lambda r: f"- Billing test used sk_live_{_r(r, ALNUM, 24)} by mistake; rotate it.",
    "OpenAI API key": lambda r: f"- export OPENAI_API_KEY=sk-proj-{_r(r, URLSAFE, 48)}{r.randint(0, 9)}",
    "Anthropic API key": lambda r: f"- The eval harness key: sk-ant-api03-{_r(r, URLSAFE, 93)}AA",
    "Google API key": lambda r: f"- Maps key for the demo: AIza{_r(r, URLSAFE, 35)}",
    "npm token": lambda r: f"- //registry.npmjs.org/:_authToken=npm_{_r(r, ALNUM, 36)}",
    "PyPI token": lambda r: f"- Upload token: pypi-AgEIcHlwaS5vcmc{_r(r, URLSAFE, 60)}",
    "Hugging Face token": lambda r: f"- HF read token hf_{_r(r, ALNUM, 34)} for the model mirror.",
    "SendGrid key": lambda r: f"- Mail relay key SG.{_r(r, URLSAFE, 22)}.{_r(r, URLSAFE, 43)}",
    "Twilio key": lambda r: f"- Twilio API key SK{_r(r, HEX, 32)} for the SMS pager.",
    "Mailchimp key": lambda r: f"- Newsletter: mailchimp key {_r(r, HEX, 32)}-us{r.randint(1, 20)}",
    "Discord bot token": lambda r: f"- Discord bot: M{_r(r, ALNUM, 23)}.{_r(r, URLSAFE, 6)}.{_r(r, URLSAFE, 27)}",
    "Telegram bot token": lambda r: f"- Telegram bot token {r.randint(10**8, 10**9)}:AA{_r(r, URLSAFE, 33)}",
    "Azure storage key": lambda r: (
        "- Connection: DefaultEndpointsProtocol=https;AccountName=kestrelprod;"
        f"AccountKey={_r(r, B64, 86)}==;EndpointSuffix=core.windows.net"
    ),
    "RSA private key": lambda r: "- Deploy key below\n" + _pem("RSA PRIVATE KEY", r),
    "OpenSSH private key": lambda r: "- Jump host key:\n" + _pem("OPENSSH PRIVATE KEY", r),
    "service-account private key (JSON)": lambda r: (
        '- gcp sa: {"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n'
        f'{_r(r, B64, 64)}\\n-----END PRIVATE KEY-----\\n"}}'
    ),
    "JSON Web Token": lambda r: f"- Session token from the staging login: {_jwt(r)}",
    "bearer token header": lambda r: (
        f"- curl -H 'Authorization: Bearer {_r(r, URLSAFE, 40)}' https://api.kestrel.dev/v1/jobs"
    ),
    "Postgres URL with password": lambda r: (
        f"- Prod DB: postgres://billing:{_password(r)}@db-1.kestrel.internal:5432/billing"
    ),
    "MongoDB URL with password": lambda r: (
        f"- Atlas: mongodb+srv://app:{_r(r, ALNUM, 16)}@cluster0.{_r(r, HEX, 5)}.mongodb.net/prod"
    ),
    "Redis URL with password": lambda r: f"- Cache at redis://:{_r(r, ALNUM, 24)}@cache.kestrel.internal:6379/0",
    "generic API key assignment": lambda r: f"- In .env: DATADOG_API_KEY={_r(r, HEX, 32)}",
    "secret in YAML": lambda r: f'- values.yaml: `client_secret: "{_r(r, ALNUM, 32)}"`',
    "password in prose": lambda r: f"- The wifi password at the office is {_password(r)}",
    "password after a colon": lambda r: f"- Router admin login: admin / password: {_password(r)}",
    "password in a command": lambda r: f"- mysql -u root -p'{_password(r)}' -h 10.0.3.7 inventory",
    "password assignment": lambda r: f"- DB_PASSWORD={_password(r)} in the staging env file",
}

LOOK_ALIKES: dict[str, Template] = {
    "commit hash": lambda r: f"- Fixed the flaky test in commit {_r(r, HEX, 40)}.",
    "short commit and PR": lambda r: f"- Merged PR #{r.randint(100, 9999)} ({_r(r, HEX, 12)}) after review.",
    "UUID": lambda r: (
        f"- Request id {_r(r, HEX, 8)}-{_r(r, HEX, 4)}-4{_r(r, HEX, 3)}-a{_r(r, HEX, 3)}-{_r(r, HEX, 12)} failed twice."
    ),
    "sha256 checksum": lambda r: f"- The release tarball sha256 is {_r(r, HEX, 64)}",
    "docker image digest": lambda r: f"- Pinned image kestrel/api@sha256:{_r(r, HEX, 64)}",
    "SSH public key": lambda r: f"- Added my laptop: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_r(r, B64, 43)} ana@laptop",
    "SSH key fingerprint": lambda r: f"- Host key fingerprint SHA256:{_r(r, B64, 43)}",
    "base64 image data": lambda r: f"- Logo inline: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAA{_r(r, B64, 60)}",
    "placeholder key": lambda r: r.choice(
        [
            "- Set OPENAI_API_KEY=<your-key-here> before running the evals.",
            "- The template has `api_key: YOUR_API_KEY` to fill in.",
            '- Example from the docs: token = "xxxxxxxxxxxxxxxxxxxxxxxx"',
            "- password: ******** (redacted in the ticket)",
        ]
    ),
    "env var name only": lambda r: r.choice(
        [
            "- The deploy needs STRIPE_SECRET_KEY and GITHUB_TOKEN set in the CI secrets store.",
            '- Read the key with os.environ["ANTHROPIC_API_KEY"]; never hard-code it.',
            '- `password = os.environ["DB_PASSWORD"]` in settings.py',
            '- api_key = get_secret("stripe/live") comes from Vault now.',
        ]
    ),
    "talk about passwords": lambda r: r.choice(
        [
            "- Rotate the database password tomorrow; Ana owns it.",
            "- The password policy now requires 14 characters and a passphrase.",
            "- We moved team passwords into 1Password; no more spreadsheets.",
            "- Secret Santa draw is on Friday, budget 20 euros.",
            "- The key insight: the token bucket refills every 250 ms.",
        ]
    ),
    "URL without credentials": lambda r: r.choice(
        [
            f"- Local DB is postgres://localhost:5432/app_{r.randint(1, 99)}",
            "- Clone with git@github.com:kestrel/api.git or https://ana@github.com/kestrel/api",
            f"- Dashboard: https://grafana.kestrel.dev/d/{_r(r, ALNUM, 9)}/latency?orgId=1",
        ]
    ),
    "identifier slug": lambda r: f"- Bucket kestrel-billing-exports-{_r(r, HEX, 8)}-eu-west-1 holds the CSVs.",
    "numbers": lambda r: (
        f"- Call +44 20 {r.randint(1000, 9999)} {r.randint(1000, 9999)}; invoice {r.randint(10**9, 10**10)}; "
        f"ip 10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"
    ),
    "token counts": lambda r: f"- max_tokens: {r.choice([1024, 4096, 8192])}, token_count = {r.randint(100, 99999)}",
    "API key id (public)": lambda r: (
        f"- The key id shown in the console is key_{_r(r, HEX, 8)} (the secret stays in Vault)."
    ),
    "version and build": lambda r: f"- Deployed build 2026.{r.randint(1, 12)}.{r.randint(1, 28)}+g{_r(r, HEX, 7)}",
    "base64 config blob": lambda r: (
        f"- Feature flags blob: {_b64url(json.dumps({'dark_mode': True, 'beta': r.randint(1, 9)}).encode())}"
    ),
}


# The kinds known by shape, checksum and context (S106-S113) and their look-alikes.
SECRETS.update(shapes.SECRETS)
LOOK_ALIKES.update(shapes.LOOK_ALIKES)


def corpus(seed: int = 0, variants: int = 4) -> list[Sample]:
    """Every template `variants` times: secrets first, then look-alikes; deterministic per seed."""
    rng = random.Random(seed)
    samples = [Sample(kind, True, make(rng)) for kind, make in SECRETS.items() for _ in range(variants)]
    samples += [Sample(kind, False, make(rng)) for kind, make in LOOK_ALIKES.items() for _ in range(variants)]
    return samples
