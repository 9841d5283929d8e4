"""Words that label a secret, in the languages people write notes in (data for lint S117).

Each language lists the words for a password (or passphrase, passcode, PIN as a word), for a code
(access, door, gate, alarm, safe, one-time and recovery codes, PINs) and for a key (a Wi-Fi key, a
licence or API key written as a word), and the words that stand between a label and its value as
"is" does ("Passwort ist …", "le code est …", "密码是…", "パスワードは…"). `memgit.lint.labelled`
turns them into its patterns; `tests/lint/test_labels.py` holds one secret and one look-alike
line per language, so a word that goes wrong is seen in its own language.

A word is matched case-blind, as a whole word where its script parts words with spaces; in
Chinese and Japanese, which do not, it is matched where it stands. Longer phrases come first
within a kind. These are the languages with the most writers of the web and of notes (the twenty
most written and more); a language missing here still has its passwords found by the rules that
need no word (token shapes, the entropy of a value after a colon).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Labels:
    """One language's secret labels."""

    password: tuple[str, ...]
    code: tuple[str, ...]
    key: tuple[str, ...] = ()
    copulas: tuple[str, ...] = ()
    spaced: bool = True
    #: Things a code opens (door, gate, alarm, safe, locker): a label only before ":" or "is".
    place: tuple[str, ...] = ()  # False: the script writes no spaces between words (Chinese, Japanese, Thai)


def _w(text: str) -> tuple[str, ...]:
    """Words separated by `|` (phrases may hold spaces)."""
    return tuple(word.strip() for word in text.split("|") if word.strip())


LANGUAGES: dict[str, Labels] = {
    "en": Labels(
        _w(
            "password|passwort|passphrase|pass phrase|passcode|pass code|passwd|pwd|pw|pass|psk|pre-shared key"
            "|pin|pin code|login password|admin password"
        ),
        _w(
            "access code|door code|gate code|entry code|alarm code|safe code|safe combination|combination"
            "|keypad code|lockbox code|garage code|building code|security code|verification code|one-time code"
            "|recovery code|recovery codes|backup code|backup codes|pin number|pin"
        ),
        _w(
            "wifi key|wi-fi key|wlan key|network key|wpa key|wpa2 key|license key|licence key|product key|api key"
            "|secret key|api token|access token|auth token|bearer token|token"
            "|totp secret|totp seed|totp key|otp secret|2fa secret|2fa key|2fa seed|mfa secret|authenticator key"
            "|authenticator secret|setup key|wifi|wi-fi|wlan|wireless password|guest wifi|guest wi-fi"
        ),
        _w("is set to|is|was|are|=|:"),
        place=_w(
            "door|front door|back door|gate|alarm|alarm panel|safe|locker|lockbox|key safe|keypad|garage|intercom"
            "|combination lock|padlock|bike lock|lock|doors|gates|safes|lockers|lockboxes|padlocks|locks|keybox|key box"
        ),
    ),
    "de": Labels(
        _w("passwort|kennwort|passwörter|zugangspasswort|geheimzahl|pin|pin-code|pincode|losung"),
        _w(
            "zugangscode|türcode|haustürcode|tor-code|torcode|alarmcode|alarmanlage code|tresorcode|safe-code"
            "|safecode|schließfach-code|schließfachcode|schliessfach-code|schliessfachcode|zahlenkombination|kombination|schlüsselkasten-code|wiederherstellungscodes|wiederherstellungscode"
            "|sicherheitscode|bestätigungscode|einmalcode|backup-codes|code"
        ),
        _w(
            "wlan-schlüssel|wlan schlüssel|netzwerkschlüssel|wpa-schlüssel|lizenzschlüssel|produktschlüssel|schlüssel"
            "|gäste-wlan|gästewlan|wlan"
        ),
        _w("ist eingestellt auf|steht auf|ist auf|ist|lautet|war|sind|lauten"),
        place=_w(
            "tür|haustür|wohnungstür|hintertür|kellertür|tor|hoftor|gartentor|garagentor|einfahrtstor|haustor"
            "|alarmanlage|alarm|tresor|safe|schließfach|schlüsseltresor|schlüsselkasten|garage|spind"
            "|zahlenschloss|vorhängeschloss|fahrradschloss|schloss"
        ),
    ),
    "fr": Labels(
        _w("mot de passe|mots de passe|mdp|phrase secrète|code secret|code pin|pin"),
        _w(
            "code d'accès|code d’accès|digicode|code de la porte|code porte|code du portail|code portail"
            "|code d'alarme|code alarme|code de l'alarme|code du coffre|code du coffre-fort|combinaison"
            "|codes de récupération|code de récupération|codes de secours|code de secours|code de vérification|code"
        ),
        _w(
            "clé wifi|clé wi-fi|clé wpa|clé de sécurité|clé réseau|clé de licence|clé api|jeton d'accès|jeton d’accès|jeton api|jeton|clé"
        ),
        _w("est réglé sur|est mis sur|est sur|est|était|sont|c'est"),
        place=_w("porte|portail|alarme|coffre|coffre-fort|casier|boîte à clés|garage|interphone|cadenas|antivol"),
    ),
    "es": Labels(
        _w("contraseña|contrasena|clave|clave de acceso|pin|código pin|codigo pin"),
        _w(
            "código de acceso|codigo de acceso|código de la puerta|código del portal|código de la alarma"
            "|código de alarma|código de la caja fuerte|combinación|combinacion|códigos de recuperación"
            "|codigos de recuperacion|código de recuperación|código de verificación|código|codigo"
        ),
        _w("clave wifi|clave de red|clave wpa|clave de licencia|clave api"),
        _w("está puesto en|está en|es|era|son"),
        place=_w("puerta|portal|portón|alarma|caja fuerte|taquilla|garaje|candado|cerradura"),
    ),
    "pt": Labels(
        _w("senha|palavra-passe|palavra passe|pin|código pin"),
        _w(
            "código de acesso|codigo de acesso|código do portão|código da porta|código do alarme|código do cofre"
            "|combinação|códigos de recuperação|código de recuperação|código de verificação|código|codigo"
        ),
        _w("chave wifi|chave de rede|chave de licença|chave da api|chave"),
        _w("está em|está no|é|e|era|são"),
        place=_w("porta|portão|alarme|cofre|cacifo|armário|garagem|cadeado|fechadura"),
    ),
    "it": Labels(
        _w("password|parola d'ordine|parola chiave|codice pin|pin"),
        _w(
            "codice d'accesso|codice di accesso|codice della porta|codice del cancello|codice dell'allarme"
            "|codice allarme|codice della cassaforte|combinazione|codici di recupero|codice di recupero"
            "|codice di verifica|codice"
        ),
        _w("chiave wifi|chiave di rete|chiave di licenza|chiave api|chiave"),
        _w("è|e|era|sono"),
        place=_w("porta|portone|cancello|allarme|cassaforte|armadietto|garage|citofono|lucchetto"),
    ),
    "nl": Labels(
        _w("wachtwoord|wachtwoorden|pincode|pin"),
        _w(
            "toegangscode|deurcode|poortcode|alarmcode|kluiscode|combinatie|herstelcodes|herstelcode"
            "|verificatiecode|beveiligingscode|code"
        ),
        _w("wifi-sleutel|netwerksleutel|licentiesleutel|sleutel"),
        _w("staat op|is|was|zijn"),
        place=_w("deur|voordeur|poort|alarm|kluis|kluisje|garage|hangslot|fietsslot|cijferslot"),
    ),
    "pl": Labels(
        _w("hasło|haslo|hasła|kod pin|pin"),
        _w(
            "kod dostępu|kod do drzwi|kod do bramy|kod alarmu|kod do alarmu|kod do sejfu|szyfr|kody odzyskiwania"
            "|kod odzyskiwania|kod weryfikacyjny|kod"
        ),
        _w("klucz wifi|klucz sieci|klucz licencyjny|klucz"),
        _w("to|jest|był|brzmi"),
        place=_w("drzwi|brama|furtka|alarm|sejf|szafka|garaż|domofon|kłódka|klodka"),
    ),
    "ru": Labels(
        _w("пароль|пароли|пин-код|пин код|пин|pin-код"),
        _w(
            "код доступа|код от двери|код двери|код домофона|код от домофона|код сигнализации|код от сейфа"
            "|код сейфа|комбинация|коды восстановления|код восстановления|код подтверждения|код"
        ),
        _w("ключ wifi|ключ wi-fi|ключ сети|лицензионный ключ|ключ"),
        _w("это|—|-|был|была"),
        place=_w("дверь|ворота|калитка|домофон|сигнализация|сейф|ячейка|гараж|замок|навесной замок"),
    ),
    "uk": Labels(
        _w("пароль|паролі|пін-код|пін"),
        _w("код доступу|код від дверей|код домофона|код сигналізації|код сейфа|коди відновлення|код відновлення|код"),
        _w("ключ мережі|ключ"),
        _w("це|—|був"),
    ),
    "tr": Labels(
        _w("şifre|sifre|parola|şifresi|sifresi|parolası|pin|pin kodu"),
        _w(
            "erişim kodu|kapı kodu|kapı şifresi|alarm kodu|alarm şifresi|kasa şifresi|kasa kodu|kurtarma kodları"
            "|kurtarma kodu|doğrulama kodu|kod|kodu"
        ),
        _w("wifi anahtarı|ağ anahtarı|lisans anahtarı|anahtar"),
        _w("da|de|şu|:"),
    ),
    "ar": Labels(
        _w("كلمة المرور|كلمة السر|كلمه السر|الرقم السري|رمز المرور|كلمة مرور|كلمة سر"),
        _w("رمز الدخول|رمز دخول|رمز الباب|رمز الإنذار|رمز الخزنة|رموز الاسترداد|رمز التحقق|الرمز|رمز|كود"),
        _w("مفتاح الشبكة|مفتاح"),
        _w("هي|هو"),
    ),
    "fa": Labels(
        _w("رمز عبور|گذرواژه|کلمه عبور|رمز"),
        _w("کد دسترسی|کد در|کد دزدگیر|کد گاوصندوق|کدهای بازیابی|کد تایید|کد"),
        _w("کلید"),
        _w("است|هست"),
    ),
    "he": Labels(
        _w("הסיסמה|הסיסמא|סיסמה|סיסמא|סיסמת|קוד סודי"),
        _w("קוד כניסה|קוד הדלת|קוד לדלת|קוד האזעקה|קוד הכספת|קודי שחזור|קוד אימות|קוד"),
        _w("מפתח"),
        _w("היא|הוא|זה"),
    ),
    "hi": Labels(
        _w("पासवर्ड|कूटशब्द|पिन|गुप्त कोड"),
        _w("पासकोड|एक्सेस कोड|दरवाज़े का कोड|दरवाजे का कोड|अलार्म कोड|तिजोरी का कोड|रिकवरी कोड|सत्यापन कोड|कोड"),
        _w("कुंजी|की"),
        _w("है|था"),
    ),
    "bn": Labels(
        _w("পাসওয়ার্ড|পিন|গোপন নম্বর"),
        _w("অ্যাক্সেস কোড|দরজার কোড|অ্যালার্ম কোড|কোড"),
        _w("কী|চাবি"),
        _w("হল|হলো"),
    ),
    "ur": Labels(
        _w("پاس ورڈ|پاسورڈ|خفیہ کوڈ|پن"),
        _w("دروازے کا کوڈ|الارم کوڈ|کوڈ"),
        _w("کلید"),
        _w("ہے|تھا"),
    ),
    "zh": Labels(
        _w("密码|密碼|口令|登录密码|登錄密碼|支付密码|取款密码|开机密码|解锁密码"),
        _w(
            "门禁密码|門禁密碼|门禁码|门锁密码|门密码|保险箱密码|保險箱密碼|报警密码|验证码|驗證碼|恢复码|恢復碼|备用码|门禁|验证码"
        ),
        _w("密钥|密鑰|秘钥|激活码|序列号|访问令牌|訪問令牌"),
        _w("是|为|為|：|:"),
        spaced=False,
    ),
    "ja": Labels(
        _w("パスワード|暗証番号|合言葉|パスコード|ピン"),
        _w(
            "暗証番号|ドアのコード|玄関のコード|オートロック|暗証コード|認証コード|確認コード|リカバリーコード|復旧コード|バックアップコード|金庫の番号|コード"
        ),
        _w(
            "キー|鍵|暗号化キー|プロダクトキー|ライセンスキー|チャネルシークレット|クライアントシークレット|アクセストークン|認証トークン"
        ),
        _w("は|が|：|:"),
        spaced=False,
    ),
    "ko": Labels(
        _w("비밀번호|비번|패스워드|암호|핀 번호|핀번호"),
        _w(
            "출입 코드|출입코드|도어락 비밀번호|현관 비밀번호|현관 비번|경보 코드|금고 비밀번호|복구 코드|인증번호|인증 코드|도어락|자물쇠|코드"
        ),
        _w("와이파이 키|라이선스 키|와이파이 비밀번호|시크릿 키|액세스 토큰|API 키|API키|앱 키|인증 키|인증키"),
        _w("는|은|:"),
        spaced=False,  # particles attach to the label: 비밀번호는
    ),
    "vi": Labels(
        _w("mật khẩu|mat khau|mã pin|mã bí mật"),
        _w("mã truy cập|mã cửa|mã báo động|mã két|mã khôi phục|mã xác minh|mã xác nhận|mã"),
        _w("khóa wifi|khóa"),
        _w("là"),
    ),
    "id": Labels(
        # with the possessive -nya attached ("kodenya 2719", "sandinya"), and Javanese's -ne ("sandine")
        _w("kata sandi|kata laluan|sandi|kata kunci|pin|kata sandinya|sandinya|sandine|pinnya"),
        _w(
            "kode akses|kode pintu|kode gerbang|kode alarm|kode brankas|kode pemulihan|kode verifikasi|kod akses|kode|kod"
            "|kodenya|kodene"
        ),
        _w("kunci wifi|kunci"),
        _w("adalah|ialah|yaitu"),
    ),
    "th": Labels(
        _w("รหัสผ่าน|พาสเวิร์ด|รหัส pin|รหัสพิน"),
        _w("รหัสประตู|รหัสเข้าออก|รหัสสัญญาณกันขโมย|รหัสตู้เซฟ|รหัสกู้คืน|รหัสยืนยัน|รหัส"),
        _w("คีย์"),
        _w("คือ"),
        spaced=False,
    ),
    "sw": Labels(
        _w("nenosiri|neno la siri|nywila|pin"),
        _w("msimbo wa mlango|msimbo wa kengele|msimbo wa siri|msimbo"),
        _w("ufunguo"),
        _w("ni"),
    ),
    "tl": Labels(
        _w("password|pasword|pin"),
        _w("code ng pinto|code ng gate|code ng alarm|code"),
        _w("susi"),
        _w("ay|ang"),
    ),
    "sv": Labels(
        _w("lösenordet|lösenord|losenordet|losenord|lösen|pinkoden|pinkod|pin-kod|pin"),
        _w(
            "portkoden|portkod|dörrkoden|dörrkod|larmkoden|larmkod|kassaskåpskod|kod till kassaskåpet|återställningskoder|återställningskod|verifieringskod|säkerhetskoden|säkerhetskod|kod"
        ),
        _w("wifi-nyckel|nätverksnyckel|licensnyckel|nyckel"),
        _w("är|var"),
        place=_w(
            "dörren|dörr|porten|grinden|grind|larmet|larm|kassaskåpet|kassaskåp|skåpet|nyckelskåpet|nyckelskåp"
            "|nyckelboxen|nyckelbox|kodlåset|kodlås|hänglåset|hänglås|cykellåset|cykellås|porttelefon"
        ),
    ),
    "no": Labels(
        _w("passordet|passord|pinkoden|pinkode|pin-kode|pin"),
        _w("portkoden|portkode|dørkoden|dørkode|alarmkoden|alarmkode|safekode|gjenopprettingskoder|kode"),
        _w("nettverksnøkkel|nøkkel"),
        _w("er|var"),
    ),
    "da": Labels(
        _w("adgangskoden|adgangskode|kodeordet|kodeord|pinkoden|pinkode|pin-kode|pin"),
        _w("dørkoden|dørkode|portkoden|portkode|alarmkoden|alarmkode|pengeskabskode|gendannelseskoder|kode"),
        _w("netværksnøgle|nøgle"),
        _w("er|var"),
    ),
    "fi": Labels(
        _w("salasana|salasanat|salasanan|salasanaa|tunnusluku|tunnusluvun|pin-koodi|pin-koodin|pin"),
        # the genitive and partitive a Finnish sentence puts the word in ("porttikoden", "koodia")
        _w(
            "ovikoodi|ovikoodin|porttikoodi|porttikoodin|porttikoden|hälytyskoodi|hälytyskoodin|kassakaapin koodi"
            "|palautuskoodit|vahvistuskoodi|noutokoodi|noutokoodin|koodi|koodin|koodia|koden"
        ),
        _w("verkkoavain|avain"),
        _w("on|oli"),
    ),
    "cs": Labels(
        _w("heslo|hesla|pin"),
        _w("přístupový kód|kód ke dveřím|kód od dveří|kód alarmu|kód od trezoru|záchranné kódy|ověřovací kód|kód"),
        _w("klíč"),
        _w("je|bylo"),
    ),
    "sk": Labels(
        _w("heslo|pin"),
        _w("prístupový kód|kód od dverí|kód alarmu|kód"),
        _w("kľúč"),
        _w("je"),
    ),
    "hu": Labels(
        _w("jelszó|jelszo|jelszava|pin-kód|pin"),
        _w("belépési kód|ajtókód|kapukód|riasztókód|széf kód|helyreállítási kódok|ellenőrző kód|kód|kódja"),
        _w("kulcs"),
        _w("volt"),  # no "is" in the present ("A jelszó Qm7…"); "az" is the article "the"
    ),
    "ro": Labels(
        _w("parolă|parola|codul pin|pin"),
        _w(
            "cod de acces|codul ușii|codul de la ușă|codul alarmei|codul seifului|coduri de recuperare|cod de verificare|codul|cod|cifrul|cifru"
        ),
        _w("cheie"),
        _w("este|e|era"),
    ),
    "el": Labels(
        _w("κωδικός πρόσβασης|κωδικού πρόσβασης|συνθηματικό|κωδικός|κωδικό|κωδικού|κωδικοί|κωδικούς|κωδ|pin"),
        _w(
            "κωδικός πόρτας|κωδικός συναγερμού|κωδικός χρηματοκιβωτίου|κωδικοί ανάκτησης|κωδικός επαλήθευσης|κωδικό|κωδικός"
        ),
        _w("κλειδί"),
        _w("είναι|ήταν"),
        place=_w(
            "κουτί με τα κλειδιά|κουτί κλειδιών|κλειδοθήκη|κλειδοθήκης|πόρτα|πόρτας|συναγερμός|συναγερμού|χρηματοκιβώτιο|ντουλάπι|λουκέτο|γκαράζ"
        ),
    ),
    "lt": Labels(
        _w("slaptažodis|slaptažodžio|slaptazodis|slaptažodį|pin kodas|pin"),
        _w(
            "prieigos kodas|durų kodas|vartų kodas|signalizacijos kodas|seifo kodas|atkūrimo kodai"
            "|patvirtinimo kodas|kodas|kodą"
        ),
        _w("wifi raktas|tinklo raktas|licencijos raktas|raktas"),
        _w("yra|buvo"),
        place=_w("durys|durų|vartai|vartų|signalizacija|seifas|seifo|spintelė|spintelės|garažas|spyna"),
    ),
    "lv": Labels(
        _w("parole|paroli|paroles|pin kods|pin"),
        _w(
            "piekļuves kods|durvju kods|vārtu kods|signalizācijas kods|seifa kods|atkopšanas kodi"
            "|apstiprināšanas kods|kods|kodu"
        ),
        _w("wifi atslēga|tīkla atslēga|licences atslēga|atslēga"),
        _w("ir|bija"),
        place=_w("durvis|durvju|vārti|vārtu|signalizācija|seifs|seifa|skapītis|garāža|slēdzene"),
    ),
    "et": Labels(
        _w("parool|parooli|salasõna|pin-kood|pin1|pin2|puk|pin"),
        _w(
            "ligipääsukood|uksekood|välisukse kood|väravakood|signalisatsiooni kood|seifi kood|taastekoodid"
            "|kinnituskood|kood|koodi"
        ),
        _w("wifi võti|võrgu võti|litsentsivõti|võti"),
        _w("on|oli"),
        place=_w("uks|ukse|välisuks|värav|värava|signalisatsioon|seif|seifi|kapp|garaaž|lukk"),
    ),
    "sq": Labels(
        _w("fjalëkalimi|fjalëkalim|fjalekalimi|fjalekalim|pin"),
        _w("kodi i hyrjes|kodi i derës|kodi i deres|kodi i alarmit|kodi i kasafortës|kodet e rikuperimit|kodi|kod"),
        _w("çelësi i wifi|çelësi|çelës|celesi"),
        _w("është|eshte|ishte"),
        place=_w("dera|derës|porta|dollapi|dollap|kasaforta|alarmi|garazhi|dryni"),
    ),
    "ka": Labels(
        _w("პაროლი|პაროლია|პინ|pin"),
        _w("წვდომის კოდი|კარის კოდი|აღდგენის კოდები|კოდი|კოდია"),
        _w("გასაღები"),
        _w("არის|იყო"),
        place=_w("კარი|კარის|სეიფი|კარადა|ჭიშკარი|სიგნალიზაცია"),
    ),
    "bg": Labels(
        _w("паролата|парола|пин"),
        _w("код за достъп|код за вратата|код на алармата|код"),
        _w("ключ"),
        _w("е|беше"),
    ),
    "sr": Labels(
        _w("lozinka|šifra|sifra|лозинка|шифра|pin"),
        _w("kod za vrata|kod alarma|kod|код"),
        _w("ključ|кључ"),
        _w("je|је"),
    ),
    "ca": Labels(
        _w("contrasenya|clau d'accés|pin"),
        _w("codi d'accés|codi de la porta|codi de l'alarma|codi"),
        _w("clau"),
        _w("és|era"),
    ),
    "ms": Labels(
        _w("kata laluan|pin"),
        _w("kod akses|kod pintu|kod penggera|kod"),
        _w("kunci"),
        _w("ialah|adalah"),
    ),
    "ta": Labels(_w("கடவுச்சொல்|பின்"), _w("குறியீடு"), (), _w("ஆகும்")),
    "te": Labels(_w("పాస్‌వర్డ్|పాస్వర్డ్|పిన్"), _w("కోడ్"), (), _w("అనేది")),
    "mr": Labels(_w("पासवर्ड|संकेतशब्द|पिन"), _w("कोड"), (), _w("आहे")),
    "gu": Labels(_w("પાસવર્ડ|પિન"), _w("કોડ"), (), _w("છે")),
    "pa": Labels(_w("ਪਾਸਵਰਡ|ਪਿੰਨ"), _w("ਕੋਡ"), (), _w("ਹੈ")),
    "am": Labels(_w("የይለፍ ቃል|ፒን"), _w("ኮድ"), (), _w("ነው")),
    "ha": Labels(_w("kalmar sirri|kalmar wucewa|pin"), _w("lambar sirri|lamba"), (), _w("shine|ce")),
    "ga": Labels(
        _w("pasfhocal|pasfhocail|focal faire|uimhir phearsanta aitheantais"),
        _w("cód rochtana|cód an dorais|cód aláraim|cód"),
        _w("eochair wifi|eochair"),
        _w("ná|is é|ná é"),
    ),
    "yo": Labels(
        _w("ọ̀rọ̀ aṣínà|ọrọ aṣina|ọ̀rọ̀ ìgbaniwọlé|ọrọ igbaniwọle|ọ̀rọ̀ ìpamọ́|ọrọ ipamọ"),
        _w("nọ́mbà àṣírí|nọmba aṣiri|kóòdù|koodu"),
        (),
        _w("ni|jẹ́|jẹ"),
    ),
}


#: Compounding languages (German, Dutch, the Nordic languages, Finnish, Hungarian) write a code's
#: label as one word: the thing it opens or unlocks, then the word for code or password
#: ("Spindcode", "Garagentorcode", "Abholcode", "kluiscode", "porttikoodi"). These heads join
#: every language's `place` words: a compound of one of them and one of `COMPOUND_TAILS` is read
#: as the two words ("Spind code"). Heads name something a code opens or unlocks, never a kind of
#: code that is no secret (zip, error, status, promo, bar, source: not listed).
COMPOUND_HEADS: tuple[str, ...] = tuple(
    "abhol|freischalt|entsperr|sperr|zugangs|paket|paketbox|packstation|briefkasten|postfach|haus|wohnung"
    "|wohnungs|keller|büro|buero|schrank|handy|sim|tablet|laptop|bildschirm|geräte|kinder|eltern|notfall"
    "|ophaal|toegangs|deur|brievenbus|pakket|kluis|telefoon|ontgrendel|dörr|larm|skåp|telefon"
    "|dør|alarm|postkasse|pakke|skab|ovi|portti|hälytys|lukko|puhelin|ajtó|kapu|riasztó|széf|telefon".split("|")
)
#: The words for code or password that end such a compound.
COMPOUND_TAILS: tuple[str, ...] = tuple(
    "code|kode|koden|koodi|kód|kódja|pin|pincode|passwort|kennwort|wachtwoord|lösenord|passord|kodeord".split("|")
)
