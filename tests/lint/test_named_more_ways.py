"""Issue 45, seventh round: secrets named in more ways, each beside a line it must leave alone.

A live key by its issuer's naming convention and a calendar's secret address; national numbers
python-stdnum has no validator for, by the names their countries use (as capitals only: Turkish
"HDMI2'nin" is no Nigerian NIN); a password a device is said to want, and one after "basic auth";
recovery codes listed with bullets or in numbered columns; a seed phrase typed as a block of lines
a few lines below the paragraph that says what it is. Values are made up here.
"""

from __future__ import annotations

from mnemonic import Mnemonic

from memgit.lint.secrets import find_secrets


def values(text: str) -> set[str]:
    return {hit.value for hit in find_secrets(text.split("\n")) if hit.value}


def flagged_lines(text: str) -> set[int]:
    return {hit.index for hit in find_secrets(text.split("\n"))}


def test_a_live_key_by_its_naming_convention_and_a_secret_calendar_address() -> None:
    assert values("old one live_sk_Q7w2Er9Ty4Ui1Op6As3Df8G revoked") == {"live_sk_Q7w2Er9Ty4Ui1Op6As3Df8G"}
    assert values("`pay_live_4b9e1c7a2f6d0e8b3c5a9f1d7e2b4c6a`") == {"pay_live_4b9e1c7a2f6d0e8b3c5a9f1d7e2b4c6a"}
    assert values("is_live_streamingEnabledForAllUsers = true") == set()  # no digit: a name
    url = "https://calendar.example.com/ical/team/private-0f3a9c1e7b2d4f6a8c0e2b4d6f8a1c3e/basic.ics"
    assert values(url) == {"0f3a9c1e7b2d4f6a8c0e2b4d6f8a1c3e"}
    assert values("https://calendar.example.com/ical/team/public/basic.ics") == set()


def test_national_numbers_without_a_validator_by_their_names() -> None:
    assert values("- PhilHealth no. 12-345678901-2, for the renewal") == {"12-345678901-2"}
    assert values("- her NIN 48201937561 for the embassy letter") == {"48201937561"}
    assert values("- thẻ BHYT số: HN3017920384751") == {"HN3017920384751"}
    assert values("- HDMI2'nin çözünürlüğünü 1280x1024'e değiştirip, DP1'in sağına koy:") == set()
    assert values("the nin 2 tier of the stadium") == set()


def test_a_password_a_device_wants_and_one_after_basic_auth() -> None:
    assert values("the router wants Kiln-Harbour-44, all lowercase") == {"Kiln-Harbour-44"}
    assert values("ok the NAS only accepts Tr0mso#Fjord88 now") == {"Tr0mso#Fjord88"}
    assert values("the router wants firmware-2024.1 first") == set()  # a version, not a password
    assert values("staging: basic auth is now preview / Gorse-Amber-Wasp9") == {"Gorse-Amber-Wasp9"}


def test_recovery_codes_with_bullets_and_in_numbered_columns() -> None:
    bullets = "\n".join(
        ["stare kody zapasowe unieważnione, nowe:", "", "```", " ○ 5827 1946    ○ 3410 8742", " ○ 7192 6605", "```"]
    )
    assert flagged_lines(bullets) == {3, 4}
    columns = "\n".join(["```", "CÓDIGOS DE BACKUP", "1. 4819 1027    6. 7320 5592", "2. 9061 6634    7. 1856 2219"])
    assert flagged_lines(columns) == {2, 3}
    reserve = "- códigos reserva do Discord (ele mandou):\n  - 6kq2m9xp\n  - w4n8b1ta"
    assert values(reserve) == {"6kq2m9xp", "w4n8b1ta"}
    steps = "\n".join(["Setup steps:", "", "1. 4819 then 2", "2. restart"])  # no heading naming codes
    assert flagged_lines(steps) == set()


def test_a_seed_typed_as_a_block_a_few_lines_below_what_it_is() -> None:
    czech = Mnemonic("czech")
    words = czech.to_mnemonic(bytes(range(60, 76))).split()
    words[-1] = next(w for w in czech.wordlist if not czech.check(" ".join([*words[:-1], w])))
    # the checksum fails: only the words around can say what the block is
    block = [" ".join(words[i : i + 3]) for i in range(0, 12, 3)]
    told = ["His wallet app is in Czech, so the recovery words are Czech too.", "He read them out, I typed.", ""]
    lines = [*told, "Printed copy goes to the safe.", "", "```", *block, "```"]
    assert flagged_lines("\n".join(lines)) == {6, 7, 8, 9}
    far = ["His wallet app is in Czech.", *[f"- unrelated note {n}" for n in range(10)], "", *block]
    assert flagged_lines("\n".join(far)) == set()  # nothing near says what the words are


def test_a_network_key_after_its_name_and_a_slash_wherever_the_label_is() -> None:
    assert values('wifi_shop: "Harbour-Shop / Kiosk.Lantern.2027"') >= {"Kiosk.Lantern.2027"}
    assert values("<!-- vanha verkko: Koti-OLD / pullapitko2018 – the old Switch still uses it -->") == {
        "pullapitko2018"
    }
    assert values("the network page: Settings / Network2024 / Advanced") == set()  # a menu's path
    assert values("see docs / tutorial2024 for the rest") == set()  # no network named


def test_every_identifier_a_line_names() -> None:
    assert values("> کد ملی من 0048712639 هست و شماره پاسپورت Y48213975") == {"0048712639", "Y48213975"}
    assert values("आधार नंबर 4836 2019 5741 है, पैन कार्ड BKRPY4827M") == {"4836 2019 5741", "BKRPY4827M"}


def test_more_names_forms_and_shapes() -> None:
    assert values("- rijbewijsnummer 6123847791") == {"6123847791"}
    assert values("> для договора нужен мой ИИН: 860514401285") == {"860514401285"}
    assert values("- Gembok pagar depan kodenya 2719 – Pak RT juga tahu.") == {"2719"}
    assert values("- k-market, noutokoodi 615029") == {"615029"}
    assert values("ID-kaart: PIN1 5832, PIN2 ja PUK on seifis.") == {"5832"}  # not "5832, PIN2"
    assert values("opnsense_totp_seed: 7WKAYDZ7HUMDYNSK") == {"7WKAYDZ7HUMDYNSK"}
    assert values("- client_secret `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`") >= {"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"}


def test_the_seed_words_are_every_list_of_the_mnemonic_package_without_importing_it() -> None:
    """The lint reads BIP-39's word lists from the package's files (a commit's hook pays no wallet
    code): every word of every language the package lists, in a child interpreter that then has
    not imported it."""
    import subprocess
    import sys

    from mnemonic import Mnemonic

    from memgit.lint import seeds

    vocabulary = seeds._vocabulary()
    languages = sorted(Mnemonic.list_languages())
    assert len(languages) == len(seeds._word_lists()) >= 10
    for bit, language in enumerate(languages):
        for word in Mnemonic(language).wordlist:
            form = word if word.isascii() else seeds._fold(word)
            assert vocabulary.get(form, 0) & (1 << bit), (language, word)
    child = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from memgit.lint import seeds; seeds._vocabulary(); print('mnemonic' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert child.stdout.strip() == "False"


def test_a_number_with_four_digits_in_order_by_chance_and_a_year_a_code_word_dates() -> None:
    """Four digits in order inside a valid long number happen by chance (the CNP below is
    valid): only a number mostly made of runs is a manual's sample. A year after a code's label
    is no code when a month or a season before it dates something; otherwise it may be one (PINs
    are often years)."""
    assert values("- CNP: 2991104123451") == {"2991104123451"}
    assert values("- SSN 123-45-6789 (the one every manual prints)") == set()
    assert values("- the door code changes in spring 2026") == set()
    assert values("- der Türcode ändert sich im Frühjahr 2027") == set()
    assert values("- alarm code is 1987") == {"1987"}
    assert values("- gate code: 2026") == {"2026"}
    assert values("- Türcode lautet 1987") == {"1987"}
    assert values("- PIN ya M-Pesa 1958, Wanjiru knows it") == {"1958"}
    assert values("- le code de la porte change en mars 2027") == set()


def test_labels_inside_compounds_with_clitics_and_in_more_words() -> None:
    """A password word ending a compound (German, Dutch, Nordic), an Arabic label with "and" or
    "the" written onto it, a card's security code after its name and a few words, a secret or a
    token in Japanese, a door lock in Korean, an account after a bank's name and "nº", a passport
    number after a flag; and beside each, the line that must stay clean. Values are made up."""
    assert values("Dein Initialpasswort für Grafana ist Krüger-Kaffee-77, bitte ändern") == {"Krüger-Kaffee-77"}
    assert values("- Passworteingabe dauert 300 ms") == set()
    assert values("- Barcode 4006381333931 gescannt") == set()
    assert values("> وكلمة سر الواي فاي: Haddad@Academia1") == {"Haddad@Academia1"}
    assert values("> والرمز البريدي 11564 للقاهرة") == set()
    assert values("  el código de atrás (CVC) es 318") == {"318"}
    assert values("- security code on the back: 771") == {"771"}
    assert values("- security code review 2024 done") == set()
    assert values("> チャネルシークレット: e093be4252a2205e5cbb328dc7b27964") == {"e093be4252a2205e5cbb328dc7b27964"}
    assert values("- 현관 도어락 731962 다음에 *") == {"731962"}
    assert values("- cuenta de ahorros Bancolombia nº 912-483071-56") == {"912-483071-56"}
    assert values("- cuenta de ahorros Bancolombia: abrir en marzo") == set()
    assert values("- passaporte 🇧🇷 FX482913 (val. 08/2031)") == {"FX482913"}


def test_a_combination_turned_on_a_locks_dials() -> None:
    """Digits one by one after the verb of turning a lock's dials or the lock's name, in several
    languages; a formation, a sequence or a page range is no combination."""
    assert values("o cadeado de combinação é o amarelo, girei 6-1-3-8 e abriu") == {"6-1-3-8"}
    assert values("> Pour la boîte, tournez les molettes sur 0-5-5-3 et tirez vers le bas.") == {"0-5-5-3"}
    assert values("- Zahlenschloss am Keller: 4-0-7-1") == {"4-0-7-1"}
    assert values("- formation 4-4-2 again, turned it around") == set()
    assert values("- turn to pages 1-2-3-4 of the manual") == set()


def test_a_bare_secret_word_in_a_script_without_spaces_labels_nothing() -> None:
    """Korean and Japanese "secret" and "token" alone name the thing, as English "secret" does
    ("사용되지 않는 시크릿 감지:" above a command's name, a real tldr page): only the compounds
    that name one secret are labels."""
    assert values("- 사용되지 않는 시크릿 감지:\n\n`k8s-unused-secret-detector`") == set()
    assert values("> チャネルシークレット: e093be4252a2205e5cbb328dc7b27964") == {"e093be4252a2205e5cbb328dc7b27964"}


def test_a_key_word_ending_a_compound_and_backup_code_lists_in_nordic_languages() -> None:
    """ "Oppsettnøkkel" (a setup key) at the end of a line, its base32 value on the next; a list of
    backup codes under "Backup-koder"; a house key or a licence portal stays an ordinary line."""
    assert values("Oppsettnøkkel (hvis telefonen dør):\n35FOPIIYIXPLQITFGKLZTXA5LKWLEXV3") == {
        "35FOPIIYIXPLQITFGKLZTXA5LKWLEXV3"
    }
    assert values("Backup-koder, hver kan brukes én gang:\n```\n9121 2943   1641 7421\n0562 2128\n```") == {
        "9121 2943   1641 7421",
        "0562 2128",
    }
    assert values("- Hausschlüssel liegt bei Frau Meier, Wohnung 3") == set()
    assert values("- Lizenzschlüssel-Verwaltung läuft über das Portal") == set()


def test_the_next_persons_number_below_one_found_by_the_same_validator() -> None:
    """Below an identifier found after its name, in the same list, a number the same validator
    takes with as many digits is another person's ("- Erik:" / "  1406…"); an order or a ticket
    number there, or one past a blank line, is not."""
    found = "- Fødselsnummer (meg) 23118149831\n- Erik:\n  14067933916"
    assert values(found) == {"23118149831", "14067933916"}
    assert values("- Fødselsnummer (meg) 23118149831\n\n  14067933916") == {"23118149831"}
    assert values("- SSN 536-22-8714\n- order 482913756 shipped") == {"536-22-8714"}


def test_a_phone_number_below_an_identifier_is_no_second_identifier() -> None:
    """After a country's dialling prefix a number is a phone's, though a validator of the kind
    above takes its digits ("+48 512 330 400" passes a German tax number's check)."""
    assert values("- PESEL taty 49030717025\n- kazali podać telefon, podałam +48 512 330 400") == {"49030717025"}
    assert values("- PESEL taty 49030717025\n- mama: 48512330400") == {"49030717025", "48512330400"}


def test_under_a_codes_heading_a_number_its_own_label_names_is_not_the_code() -> None:
    assert values("## Alarm\nNy alarmkode:\n→ 5519\nKundenr. Sector 22 40 18 77") == {"5519"}
    assert values("## Alarm\nNy alarmkode:\n→ 5519\nkode til garasjen 7730") == {"5519", "7730"}
    assert values("## Alarm\n\n- no change: 4821\n- tel. 22 40 18 77") == {"4821"}  # "no" is a word


def test_an_account_named_by_a_compound_and_an_aside_before_its_number() -> None:
    assert values("- brukskonto (jeg + Ola) 1503.27.40918") == {"1503.27.40918"}
    assert values("- Sparkonto (für die Kinder): 2840193756") == {"2840193756"}
    assert values("- Girokonto seit 2019 bei der Sparkasse, 3 Unterkonten") == set()


def test_a_code_changed_or_new_later_in_its_sentence() -> None:
    """A bare "code" opens nothing; beside a change or "new" word, or as a code's own name (PIN),
    the first four-to-eight-digit number later in its sentence is the code."""
    assert values("- kode til boden er ny fra mandag 4418#") == {"4418#"}
    assert values("- byttet PIN i minibanken på Storo, ny er 8361 (gammelt postnummer)") == {"8361"}
    assert values("- hun har endret koden, nå 2593") == {"2593"}
    for prose in (
        "- the new code review process starts in 2026 with 4500 lines",
        "- exit code changed to 137 after the patch",
        "- GPIO pin 13 on the header",
        "- new code style guide, 2400 words",
        "- the code changed. Ticket 48213 has the details",
    ):
        assert values(prose) == set(), prose


def test_a_code_ending_a_quote_a_romanian_combination_and_a_bare_account() -> None:
    assert values("- la Eleni a écrit «κωδικός για το ντουλάπι 4471» sur le frigo") == {"4471"}
    assert values('- lacătul de la pivniță are "cifrul 3906", știe toată scara') == {"3906"}
    assert values("- account 5203918476, savings, at the credit union") == {"5203918476"}
    assert values("- account 2024-05-01 closed; on account of 12 delays") == set()


def test_a_pin_by_any_name_and_a_new_code_in_arabic_later_in_their_sentence() -> None:
    """A label naming a password and a code at once is a PIN ("暗証番号"): it needs no change word."""
    assert values("駅のロッカーは暗証番号式で、控えに書いた番号 6390 を押したら開いた") == {"6390"}
    assert values("> غيرت رمز البوابة. الرمز الجديد 7146 ثم المربع") == {"7146"}
    assert values("- 暗証番号の桁数は4桁。2024年に変更") == set()
    assert values("> الرمز البريدي الجديد 11564") == set()


def test_a_nummer_compounds_short_forms_an_aside_and_the_number_on_the_next_line() -> None:
    """Words ending "nummer" are written "…nr." too; the number may follow an aside, or stand on the
    next line when the name ends its line."""
    assert values("- Führerschein-Nr. (Klasse B und BE) J43X7Q2R918") == {"J43X7Q2R918"}
    assert values("- TK Versichertennr.\n  K739204815") == {"K739204815"}
    assert values("- Kundennr. 48213977 bei der Bahn") == set()
    assert values("- Versichertennr. steht auf der Karte\n  2026 neu beantragen") == set()


def test_a_vietnamese_account_abbreviation_and_greek_code_ending_a_line() -> None:
    assert values("- ba: Agribank STK 1500205583921 chi nhánh Đống Đa") == {"1500205583921"}
    assert values("> το λουκέτο στην αποθήκη, κωδικός 4718") == {"4718"}


def test_after_account_an_iban_is_judged_by_its_checksum_and_a_short_card_number_is_not_an_iban() -> None:
    assert values("- account GB33 MUEH 2860 1290 4047 97 is not valid, asked again") == set()
    assert values("- 在留カード番号 QK59302718ZB (永住者)") == {"QK59302718ZB"}
