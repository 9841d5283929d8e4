"""Personal identifiers and bank numbers of every country python-stdnum covers, behind the words
that name them (lint S116; pure).

A social security, national identity, tax, driving licence or passport number, a bank routing or
account number: each country writes its own, and python-stdnum (a dependency already, for IBANs)
knows the format and the check digits of ~90 of them. A number alone is no secret (an order or a
phone number has the same shape), so a number counts only where a word names it as one of these
on its line ("SSN", "Sozialversicherungsnummer", "codice fiscale", "sort code", "BSN", "CPF",
"주민등록번호", …), or in a table column whose header does (`multiline.py`), and only when it passes a
validator of one of the selected modules, or, for the kinds with no check digits (a sort code, a
bank account or routing number named as such), has their shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from memgit.lint.id_names import HOLDER_WORDS, NUMBER_WORDS
from memgit.lint.normalize import without_accents

CODE = "S116"

#: python-stdnum modules of personal identifiers, personal tax numbers and bank numbers (company,
#: VAT, product and postal numbers left out: they are public).
MODULES = (
    "ad.nrt al.nipt ar.cbu ar.cuit ar.dni at.tin at.vnr au.tfn az.voen be.eid be.nn be.ssn bg.egn bg.pnf br.cpf"
    " ca.bc_phn ca.sin ch.ssn cl.rut cn.ric cr.cpf cr.cr cu.ni cz.bankaccount cz.rc de.idnr de.stnr dk.cpr"
    " do.cedula dz.nif ec.ci ee.ik eg.tn es.ccc es.dni es.nie fi.hetu fi.veronumero fo.vn fr.nif fr.nir gb.nhs"
    " gb.upn gb.utr gh.tin gn.nifp gr.amka hr.oib id.nik ie.pps il.idnr in_.aadhaar in_.epic in_.pan in_.vid"
    " is_.kennitala it.codicefiscale jp.in_ ke.pin kr.rrn li.peid lt.asmens mu.nid mx.curp mx.rfc my.nric mz.nuit"
    " nl.bsn nl.identiteitskaartnummer nl.onderwijsnummer no.fodselsnummer no.kontonr nz.bankaccount nz.ird pe.cui"
    " pk.cnic pl.pesel pt.cc ro.cnp ru.inn se.personnummer si.emso sk.rc th.pin th.tin tr.tckimlik ua.rntrc"
    " us.atin us.itin us.rtn us.ssn us.tin uy.rut vn.mst za.idnr za.tin gr.vat"
).split()

#: Words that name a personal identifier or a bank number, in the languages of the countries above
#: (matched case-blind), and the acronyms that do (matched as written: "pan", "sin" and "run" are
#: words too).
NAMES = (
    "ssn|social security|soc sec|national insurance|ni number|ni no|nino|national id|national identity"
    "|identity number|identity card number|id number|id no|personal number|personal id|personal code"
    "|personal identification|personnummer|personnr|henkilötunnus|hetu|burgerservicenummer|sofinummer"
    "|sécurité sociale|securite sociale|numéro de sécu|insee|codice fiscale|tessera sanitaria"
    "|steuer-id|steuerid|steuer-identifikationsnummer|steueridentifikationsnummer|idnr|steuernummer"
    "|sozialversicherungsnummer|sozialversicherung|versicherungsnummer|rentenversicherungsnummer"
    "|tax id|taxpayer id|tax number|tax file number|ird number|pps number"
    "|driver's licen[cs]e|drivers licen[cs]e|driving licen[cs]e|driver licen[cs]e|dl number|licen[cs]e number|licen[cs]e no"
    "|führerschein|fuehrerschein|führerscheinnummer|permis de conduire|carnet de conducir|licencia de conducir"
    "|carta de condução|patente di guida|rijbewijs|prawo jazdy|körkort|ajokortti"
    "|passport|passport number|passport no|reisepass|passnummer|passeport|pasaporte|passaporto|paspoort|paszport"
    "|routing|routing number|aba number|sort code|sortcode|bankleitzahl|account number"
    "|account no|acct|acct no|bank account|kontonummer|kontonr|numéro de compte|numero de compte|número de cuenta"
    "|numero de cuenta|número da conta|numero di conto|conto corrente|rekeningnummer|numer konta|clabe"
    "|aadhaar|aadhar|pan card|voter id|cpr-nummer|isikukood|asmens kodas|егн|jmbg|emšo|emso"
    "|cod numeric personal|tc kimlik|t.c. kimlik|kimlik no|kimlik numarası|ic number|mykad"
    "|id nummer|cédula|cedula|rodné číslo|rodne cislo|birth number|fødselsnummer|fodselsnummer|kennitala"
    "|social insurance|health card|health insurance|krankenversicherungsnummer|versichertennummer|carte vitale"
    "|medicare|nhs number|mispar zehut|teudat zehut|инн|снилс|паспорт|номер паспорта|рнокпп|ідентифікаційний код"
    "|căn cước|mã số thuế|nomor induk|emirates id|civil id|qid|aadhaar number|ΑΦΜ|Α\\.Φ\\.Μ\\.|αριθμός ταυτότητας"
    '|ת"ז|ת\\.ז|תעודת זהות|מספר זהות|आधार|पैन|رقم الهوية|الهوية الإماراتية|بطاقة الهوية|کد ملی|شماره ملی'
    # identity cards, registers and insurance numbers as their countries name them
    "|identifikationsnummer|krankenversichertennummer|ausweisnummer|personalausweis|personalausweisnummer"
    "|registre national|numéro national|numero national|rijksregisternummer|rijksregister"
    "|número de identificação|numero de identificacao|cartão de cidadão|cartao de cidadao|cartão do cidadão"
    "|bilhete de identidade|número de utente|numero de utente|nº de utente|n.º de utente|utente sns|documento de identidad|documento nacional de identidad"
    "|dowód|dowód osobisty|dowodu osobistego|numer dowodu|nr dowodu|carta d'identità|carta di identità|carta d'identita"
    "|identiteitskaart|identiteitsbewijs|carte d'identité|carte d'identite|pièce d'identité|piece d'identite"
    "|kimlik kartı|nüfus cüzdanı|pasaport|passaporte|número do passaporte|номер паспорта"
    # a bank account's number as more languages name it
    # (each name's first four letters are searched for in every line: none may be a common start,
    # as "so t…" or "bank" would be)
    "|tilinumero|hesap no|hesap numarası|nomor rekening|số tài khoản|номер счёта"
    "|номер счета|расчётный счёт|расчетный счет|номер рахунку|číslo účtu|cislo uctu|účet|účtu|számlaszám|număr de cont"
    "|αριθμός λογαριασμού|pankkitili"
)
ACRONYMS = (
    "SSN|BSN|NIR|DNI|NIE|NIF|CPF|CURP|RUT|PESEL|AHV|TIN|ITIN|ATIN|TFN|BSB|BLZ"
    "|CBU|CPR|EGN|OIB|CNP|NRIC|NIK|KTP|CNIC|AMKA|RČ|SIN|NHS|UPN|UTR|CCCD|CMND|NPWP|TCKN|VNR|SVNR|NISS"
    "|CUIL|CUIT|CNH|CNS|RG|RUC|NSS|PPSN|PAN|CIN"
)
_SCRIPT_NAMES = (
    "身份证|身分證|マイナンバー|個人番号|住民票コード|免許証番号|運転免許証|被保険者番号|保険証番号|주민등록번호|주민번호|외국인등록번호|เลขประจำตัวประชาชน|บัตรประชาชน"
    "|护照|護照|パスポート|旅券|여권|पासपोर्ट|ड्राइविंग लाइसेंस|जवाज़|بطاقة التعريف|جواز السفر|رقم جواز"
    "|پاسپورت|گذرنامه|پاسپورٹ|شناختی کارڈ|الرقم الشخصي|رقمي الشخصي|رقمها الشخصي|رقمه الشخصي"
    "|계좌번호|계좌|口座番号|银行账号|银行卡号|账户号码|帳戶號碼|เลขที่บัญชี|เลขบัญชี|บัญชี|رقم الحساب|الحساب(?![^\\W_])|شماره حساب"
    "|खाता संख्या|खाता नंबर|מספר חשבון"
)
_NAMES = re.compile(
    r"(?i:(?<![^\W_])(?:" + NAMES.replace(" ", r"[ \t._-]?") + r")(?![^\W_]))"
    r"|(?<![^\W_])(?:" + ACRONYMS + r")(?![^\W_])"
    r"|" + _SCRIPT_NAMES
)
# The same names with a case's or a plural's ending ("des Personalausweises", "passports",
# "вида на жительство"): enough to know what a conversation is about, never to bound a value.
# Built on first use: compiling it costs every process that imports this module (a commit's hook).
_INFLECTED = r"[^\W\d_]{0,3}"


@cache
def _names_inflected() -> re.Pattern[str]:
    return re.compile(
        r"(?i:(?<![^\W_])(?:"
        + (NAMES + "|" + without_accents(NAMES)).replace(" ", _INFLECTED + r"[ \t._-]?")
        + r")"
        + _INFLECTED
        + r"(?![^\W_]))"
        r"|(?<![^\W_])(?:" + ACRONYMS + r")(?![^\W_])"
        r"|" + _SCRIPT_NAMES
    )


# A number: digits and letters with the separators countries print them with, 5+ digits in all.
_NUMBER = re.compile(r"(?<![\w@/.#-])([A-Za-z]{0,8}[0-9][0-9A-Za-z]*(?:[ .\-/][0-9A-Za-z]+){0,6})(?![\w@/-])")
_SORT_CODE = re.compile(r"(?<![\d-])\d{2}-\d{2}-\d{2}(?![\d-])|(?<![\d-])\d{3}-\d{3}(?![\d-])")
_BANK_NAMES = re.compile(
    r"(?i)sort[ -]?code|bsb|routing|aba|rtn|blz|bankleitzahl|account|acct|konto|compte|cuenta|conta|conto|rekening"
    r"|tilinumero|pankkitili|hesap|tài khoản|tai khoan|сч[её]т|рахун|účtu|uctu|számla|de cont|λογαριασμ"
    r"|계좌|口座|账号|账户|帳戶|บัญชี|حساب|खाता|חשבון"
)
# A number after a country's dialling prefix is a phone's ("wpisałam mój +48 601 274 905").
_PHONE = re.compile(r"\+\d{1,3}(?:[ .()-]{0,2}\d{1,4}){2,6}")
_NOT_ID = re.compile(
    r"(?i)€|\$|£|\bper\b|price|cost|fee|phone|tel\b|fax|hotline|call|ext\b|version|\bv\d|isbn|order|invoice|ticket"
    r"|valid|until|expir|since|issued"
)


def name_words() -> list[str]:
    """Every name and acronym as plain words, case-folded (for the cheap search of candidate lines)."""
    words = []
    for part in (NAMES + "|" + ACRONYMS + "|" + _SCRIPT_NAMES).split("|"):
        word = re.split(r"[\\\[(]", part, maxsplit=1)[0]
        if word:
            words.append(word.casefold())
    return words + [w.casefold() for w in _local_words()] + [w.casefold() for w in HOLDER_WORDS]


@cache
def _local_words() -> frozenset[str]:
    """`id_names`' words, and a "…nummer" compound's short forms as people write them
    ("Versichertennr.", "Führerschein-Nr.", "kontonr")."""
    from memgit.lint.id_names import ACCOUNT, IDENTITY

    words = {w for table in (IDENTITY, ACCOUNT) for ws in table.values() for w in ws}
    short = {w[: -len("nummer")] + end for w in words if w.endswith("nummer") for end in ("nr", "-nr")}
    return frozenset(words | {w for w in short if len(w) > 6})


@cache
def _local_names() -> re.Pattern[str]:
    """`id_names`' words: an acronym as written ("PESEL", "NIDA"), any other word case-blind, each a
    whole word where its script parts words with spaces."""
    from memgit.lint.id_names import ACCOUNT
    from memgit.lint.trie import alternation  # a trie: a thousand words cost one branch a character

    words = _local_words()
    acronyms = {w for w in words if w.upper() == w and w.lower() != w}
    accounts = {w.casefold() for ws in ACCOUNT.values() for w in ws}
    rest = words - acronyms

    edge_before, edge_after = r"(?<![^\W_])", r"(?![^\W_])"
    return re.compile(
        rf"(?P<account>{edge_before}(?i:{alternation({w.casefold() for w in rest if w.casefold() in accounts})}"
        # an account named by the compound it ends ("felleskonto", "Girokonto", "lønnskonto")
        rf"|[^\W\d_]{{0,20}}konto){edge_after})"
        rf"|{edge_before}(?:{alternation(acronyms)}){edge_after}"
        rf"|{edge_before}(?i:{alternation({w.casefold() for w in rest if w.casefold() not in accounts})}){edge_after}"
    )


def number_marks() -> str:
    """The words for "number" as a pattern's alternation (whole words, "#" and "№" too)."""
    return _marks(single=True)


def _marks(*, single: bool) -> str:
    """`id_names.NUMBER_WORDS` as one alternation: a word only whole; `single`: with the one-character
    marks ("#", "№"), which a pattern's own character class may hold already."""
    forms = []
    for word in sorted(NUMBER_WORDS, key=len, reverse=True):
        if len(word) == 1 and not single:
            continue
        forms.append(re.escape(word) + (r"(?![^\W_])" if word[-1].isalnum() else ""))
    return "(?i:" + "|".join(forms) + ")"


#: Emoji and flags people put between a document's name and its number ("passaporte 🇧🇷 FX482913").
_EMOJI = "[\U0001f1e6-\U0001f1ff\U0001f300-\U0001faff\u2600-\u27bf\ufe0f]"
# After a local name: its period and an aside in parentheses, then one or two words (a bank's or
# a plan's name) when a "number" mark follows them ("cuenta de ahorros Bancolombia nº
# 912-483071-56", "nr konta do przelewu: 12 1090 …"), or none; then separators, "number" marks
# and emoji ("n°", "nr.", ":", "🇧🇷"), then the number itself, digits with the spaces, dots or
# dashes people group them with ("2 95 07 13 055 118 28").
_LOCAL_VALUE = re.compile(
    r"\.?(?:[ \t]*\([^()\n\d]{1,60}\))?"  # an aside first: "felleskonto (Erik + meg) 1207.33.19518"
    r"(?:"
    r"(?:[ \t]+[^\s\d:：#]{1,24}){0,2}?(?=[ \t]*(?:" + _marks(single=True) + r"|nr|[:：]))"
    r"(?:[ \t:：#=(–—-]|" + _marks(single=False) + r"|nr)*+"
    r"|(?:[ \t:：#=(–—-]|" + _marks(single=False) + r"|nr|№|" + _EMOJI + r")*+)"
    r"(?P<value>[A-Za-z]{0,3}\d[\dA-Za-z]*(?:[ .-]\d[\dA-Za-z]*){0,7})(?![\w/@-]|[.,]\d)"
)


_IBAN_SHAPE = re.compile(r"[A-Z]{2}\d{2}(?: ?[A-Z0-9]{2,4}){3,8}")


def _iban_valid(value: str) -> bool:
    from stdnum import iban

    return bool(iban.is_valid(value))


def names_id(text: str) -> bool:
    """Whether `text` (a table's cell) holds a word that names an identifier or an account."""
    return _NAMES.search(text) is not None or _local_names().search(text) is not None


def names_an_account(cell: str) -> bool:
    """Whether `cell` (a table's header) is one word that names a bank account ("rekening",
    "Konto", "계좌"), and nothing else."""
    match = _local_names().fullmatch(cell.strip(" \t*_`:："))
    return match is not None and match.group("account") is not None


@cache
def _local_names_inflected() -> re.Pattern[str]:
    words = {w.casefold() for w in _local_words() if not (w.upper() == w and w.lower() != w)}
    words |= {without_accents(w) for w in words}
    spaced = {re.escape(w).replace(r"\ ", r"[ \t._-]?") for w in words}
    return re.compile(rf"(?<![^\W_])(?i:{'|'.join(sorted(spaced, key=len, reverse=True))}){_INFLECTED}(?![^\W_])")


def names_an_identifier(text: str, *, accounts: bool = True) -> bool:
    """Whether `text` names a personal identifier (or, with `accounts`, a bank account) in any of
    the languages above, inflected or not, with its accents or without ("die Nummer des
    Personalausweises", a file "ho-chieu-bo_…"): what a conversation or a file's name is about,
    never a value's bound. A file named "routing-…" or "account-…" is about a system as often."""
    plain = without_accents(text)
    for pattern in (_names_inflected(), _local_names_inflected()):
        for form in (text, plain):
            for match in pattern.finditer(form):
                if accounts or _BANK_NAMES.search(match.group(0)) is None:
                    return True
    return False


def local_name_ending(line: str) -> str | None:
    """The `id_names` word that ends `line` (after it only marks: ".", ":", "nr", "#"), so its
    number is on the next line ("AOK Versichertennr." / "T482619376"); None otherwise."""
    last = None
    for match in _local_names().finditer(line):
        last = match
    if last is None or line[last.end() :].strip(" \t.:：#*_`-=№") not in ("", "nr", "no", "n°", "nº"):
        return None
    return last.group(0)


def local_ids(line: str) -> list[str]:
    """The numbers right after a word of `id_names` ("ፓስፖርት ቁጥር EP6928314", "n° sécu 2 95 07 13
    055 118 28", "rek. 5270384916"): a person's identifier or account, though no validator knows
    its country. Seven digits or more (six for an account, or after letters), not a date, an
    amount or a sample."""
    out = []
    for name in _local_names().finditer(line):
        match = _LOCAL_VALUE.match(line, name.end())
        if match is None:
            continue
        value = match.group("value").rstrip(" .-")
        digits = sum(c.isdigit() for c in value)
        lettered = re.match(r"[A-Za-z]{1,3}\d", value) is not None  # a passport's "FX482913"
        # a document's number of letters and digits mixed (a Dutch passport's "NW8K2LT74")
        mixed = _DOCUMENTS.search(name.group(0)) is not None and _MIXED_DOCUMENT.fullmatch(value) is not None
        if digits < (6 if name.group("account") or lettered else 7) and not mixed or len(value) > 30 or _sample(value):
            continue
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{1,3}(?:[.,]\d{3})+", value):
            continue  # a date or an amount ("rek. 1.500.000 masuk")
        if _IBAN_SHAPE.fullmatch(value) and len(value.replace(" ", "")) >= 15 and not _iban_valid(value):
            continue  # an IBAN is judged by its checksum alone: a wrong one is a typo's, not an account
        if value not in out:
            out.append(value)
    return out


@cache
def _validators() -> tuple[Callable[[str], bool], ...]:
    import importlib

    out = []
    for name in MODULES:
        try:
            module = importlib.import_module("stdnum." + name)
        except ImportError:  # an older python-stdnum: use what it has
            continue
        out.append(module.is_valid)
    return tuple(out)


def personal_id(line: str) -> str | None:
    """The first number on `line` that a word there names as a personal identifier or bank number
    and that passes a validator (or has a bank or document number's shape); None otherwise."""
    found = personal_ids(line, first=True)
    return found[0] if found else None


def personal_ids(line: str, *, first: bool = False) -> list[str]:
    """Every number `personal_id` would take, one after each name on the line ("کد ملی … و شماره
    پاسپورت …", "आधार नंबर … पैन कार्ड …"): a line may give a person's identity number and passport."""
    out: list[str] = []
    for name in _NAMES.finditer(line):  # each name in turn: "NIF … · Kimlik No … · pasaport …"
        word = name.group(0)
        found = id_value(
            line[name.end() :], bank=_BANK_NAMES.search(word) is not None, document=_DOCUMENTS.search(word) is not None
        )
        if found is not None and found not in out:
            out.append(found)
            if first:
                break
    if first and out:
        return out
    for found in held_accounts(line):
        if found not in out:
            out.append(found)
    if first and out:
        return out
    for found in local_ids(line):
        if found not in out:
            out.append(found)
    return out[:1] if first else out


@cache
def _held() -> re.Pattern[str]:
    holders = "|".join(
        re.escape(w) + (r"(?![^\W_])" if w[-1].isalnum() else "") for w in sorted(HOLDER_WORDS, key=len, reverse=True)
    )
    return re.compile(
        r"(?<![\w.+/@#-])(?P<value>\d(?:\d|[ -](?=\d)){5,29})(?![\w.,/-]?\d)[ \t]*+[,;]?[ \t]*+(?i:" + holders + ")"
    )


def held_accounts(line: str) -> list[str]:
    """Numbers followed by the words that name their holder (`id_names.HOLDER_WORDS`): an account,
    whatever came before it ("Rekening bapak sing BCA iku 0881726453 a.n. Hartono")."""
    if not any(word in line.casefold() for word in _HOLDER_STEMS):
        return []
    out = []
    for match in _held().finditer(line):
        value = match.group("value")
        if _NOT_ID.search(line[max(0, match.start() - 30) : match.start()]):
            continue  # an invoice's, an order's or a phone's number ("invoice 88213045 account name …")
        if sum(c.isdigit() for c in value) >= 6 and not _sample(value) and not _DATE_NUMBER.fullmatch(value):
            out.append(value)
    return out


_HOLDER_STEMS = tuple(dict.fromkeys(word.casefold()[:4] for word in HOLDER_WORDS))


# Documents whose numbers have letters and few digits and no check digits anyone publishes
# (passports, driving licences): taken by shape after "number", "no." or ":".
_DOCUMENTS = re.compile(
    r"(?i)passport|pass|licen[cs]e|\bcin\b|führerschein|permis|licencia|rijbewijs|id card|identity card|ausweis"
    r"|condução|conducao|conducir|motorista|prawo jazdy|patente|körkort|ajokortti|ehliyet|運転免許|운전면허"
    r"|驾驶证|駕駛執照|водительск|посвідчення водія"
    r"|pasaport|paspoort|paszport|paspor|passaporte|passaporto|pasaporte|dowód|dowodu|kimlik|identiteitskaart|identit[ée]"
    r"|identit[àa]|identidad|identidade|cidad[ãa]o|паспорт|पासपोर्ट|جواز|护照|護照|パスポート|旅券|여권|التعريف"
    r"|پاسپورت|گذرنامه|پاسپورٹ"
)
#: A document number of capitals and digits mixed, three digits and two capitals at least.
_MIXED_DOCUMENT = re.compile(r"(?=(?:[A-Z]*\d){3})(?=(?:\d*[A-Z]){2})[A-Z0-9]{8,12}")
_DOCUMENT_NUMBER = re.compile(r"(?=[A-Z0-9]*\d)(?=(?:[0-9]*[A-Z]){2})[A-Z0-9]{6,18}")
_NUMBER_WORD = re.compile(r"(?i)(?:" + _marks(single=True) + r"|no|nr|num|:)\s*$")
# Right after a document's name ("pasaport U67798763", "passeport n° 19AH01436"), a number of
# a passport's shape: one to three capitals and six to nine digits, or capitals and digits mixed.
_NAMED_DOCUMENT = re.compile(
    # each run of spaces taken once (possessive): three runs that may give spaces back to each other
    # made a name, a few thousand spaces and a number take minutes (a hostile note)
    r"^[ \t]*+(?:[:：]|"
    + _marks(single=True)
    + r"|no|nr)?+[ \t]*+[:：)]?+(?:[ \t]|"
    + _EMOJI
    + r")*+"  # "여권 🇰🇷 M417K2983"
    r"(?P<number>[A-Z]{1,3}\d{6,9}|(?=[A-Z0-9]*\d{4})[A-Z0-9]{7,12}|(?=(?:[A-Z]*\d){3})(?=(?:\d*[A-Z]){2})[A-Z0-9]{8,12})(?![\w-])"
)


# A document number written with a letter prefix and a dash ("P-1482337 7", "B-0722194"), right
# after the document's name and a colon.
_PREFIXED_DOCUMENT = re.compile(r"^[ \t]*+[:：]?+[ \t]*+([A-Z]{1,3}-\d{5,12}(?: \d{1,2})?)(?![\w-])")


_DATE_NUMBER = re.compile(
    r"(?:19|20)\d{2}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}[./](?:19|20)?\d{2}|(?:19|20)\d{2}[./](?:0?[1-9]|1[0-2])"
)


def id_value(text: str, *, bank: bool = False, document: bool = False) -> str | None:
    """The first number in `text` (what follows a name, or a table cell) that validates."""
    if document and (prefixed := _PREFIXED_DOCUMENT.match(text)) is not None:
        return prefixed.group(1)
    if document and (named := _NAMED_DOCUMENT.match(text)) is not None and not _sample(named.group("number")):
        return named.group("number")
    previous = 0
    for match in _NUMBER.finditer(text):
        before, previous = text[previous : match.start()], match.end()
        if _NOT_ID.search(before[-30:]) or _DATE_NUMBER.fullmatch(match.group(1)) or before.endswith("+"):
            continue  # a date's parts, a phone's after its "+" ("passport renewal 2027-03-01", "+55 11 …")
        for raw in _prefixes(match.group(1)):
            digits = sum(c.isdigit() for c in raw)
            if document and _DOCUMENT_NUMBER.fullmatch(raw) and _NUMBER_WORD.search(before):
                return raw
            if (
                digits < 5
                and not (bank and _SORT_CODE.fullmatch(raw))
                and not (digits == 4 and len(raw) >= 8 and _valid(raw))
            ):
                continue  # few digits: a sort code, or a number of letters and digits a validator knows (an Indian PAN)
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{1,2}/\d{2,4}", raw):
                continue  # a date
            if bank and (_SORT_CODE.fullmatch(raw) or re.fullmatch(r"\d{6,24}", re.sub(r"(?<=\d)[ -](?=\d)", "", raw))):
                return raw
            if _valid(raw) and not _sample(raw):
                return raw
    return None


@cache
def _country_validators(country: str) -> tuple[Callable[[str], bool], ...]:
    import importlib

    out = []
    for name in MODULES:
        if name.split(".")[0].rstrip("_") == country:
            try:
                out.append(importlib.import_module("stdnum." + name).is_valid)
            except ImportError:
                continue
    return tuple(out)


def country_id(cell: str, country: str) -> str | None:
    """`cell` when it is a personal identifier or bank number of `country` (a two-letter code, as
    in a table's country column) that passes that country's validator; None otherwise. The
    country says which numbers a cell may be, where a word would elsewhere."""
    validators = _country_validators(country.casefold())
    cell = cell.strip("`*_ ")
    if not validators:
        return None
    # The whole cell ("573 111 689"), or one word of it ("PAN QXSPR1301Q").
    for value in dict.fromkeys((cell, *(word for word in cell.split() if len(word) >= 6))):
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 .\-/]{5,24}", value) or _sample(value):
            continue
        if _passes(value, validators):
            return value
    return None


def names_a_document(cell: str) -> bool:
    """Whether `cell` names an identity document or a licence ("svenskt pass", "посвідчення водія")."""
    return _DOCUMENTS.search(cell) is not None or names_id(cell)


def looks_like_a_date(value: str) -> bool:
    """A date as a table's cell or a line writes it ("2027-09-02", "02.09.2027"), never a number."""
    return _DATE_NUMBER.fullmatch(value.strip()) is not None


def _sample(raw: str) -> bool:
    """A number manuals print as an example: it starts with 123, or half its digits or more stand in
    runs of four or more in order (123-45-6789, 123-23-3456, 4567 8901 2345). Shorter runs happen by
    chance: the valid CPF 478.912.305-79 has "789" and "123", and four digits in order inside a long
    number alone make no sample (the valid Romanian CNP 2991104123451)."""
    digits = re.sub(r"\D", "", raw)
    if not digits or digits.startswith("123"):
        return bool(digits)
    in_runs, run = 0, 1
    for before, after in zip(digits, digits[1:] + "x", strict=True):
        if after.isdigit() and int(after) == int(before) + 1:
            run += 1
            continue
        in_runs += run if run >= 4 else 0
        run = 1
    return 2 * in_runs >= len(digits)


def _prefixes(number: str) -> list[str]:
    """`number` and each shorter run of its parts from the start, longest first ("536-22-8714 ok"
    -> "536-22-8714 ok", "536-22-8714", "536-22", "536"): words after a number join its match."""
    cuts = [m.start() for m in re.finditer(r"[ .\-/]", number)]
    return [number, *(number[:cut] for cut in reversed(cuts))]


def _emirates_id(value: str) -> bool:
    """A UAE identity number: 784, the birth year, seven digits and a Luhn check digit."""
    digits = re.sub(r"[ -]", "", value)
    if not re.fullmatch(r"784(?:19|20)\d{10}", digits):
        return False
    total = 0
    for index, char in enumerate(reversed(digits)):
        n = int(char) * (2 if index % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def same_kind(value: str, text: str) -> list[str]:
    """The numbers in `text` that one of the validators taking `value` takes too, with as many
    digits: a second person's number of the same kind ("Fødselsnummer (meg) 2311…" / "- Erik:" /
    "  1406…"). A validator is a checksum: a number of that length that passes it is rarely chance."""
    digits = sum(c.isdigit() for c in value)
    if digits < 8 or _NOT_ID.search(text):
        return []  # an order, a ticket, a phone number, a price on that line: not a person's number
    kinds = tuple(v for v in _validators() if _passes(value, (v,)))
    if not kinds:
        return []
    out = []
    for match in _NUMBER.finditer(_PHONE.sub(" ", text)):
        raw = match.group(1).strip(" .-/")
        if raw != value and sum(c.isdigit() for c in raw) == digits and not _sample(raw) and _passes(raw, kinds):
            out.append(raw)
    return out


def _valid(raw: str) -> bool:
    return _emirates_id(raw) or _passes(raw, _validators())


def _passes(raw: str, validators: tuple[Callable[[str], bool], ...]) -> bool:
    """Whether one of `validators` takes `raw` as written, in capitals, or without its separators."""
    for variant in dict.fromkeys((raw, raw.upper(), re.sub(r"[ .\-/]", "", raw).upper())):
        for is_valid in validators:
            try:
                if is_valid(variant):
                    return True
            except Exception:  # noqa: BLE001 - a validator of a third-party library: its failure is no match
                continue
    return False
