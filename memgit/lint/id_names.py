"""Words people write before a personal identifier or a bank account number, in the languages of
`labels.py` (data for lint S116; pure).

"n° sécu", "ፓስፖርት ቁጥር", "الرقم الوطني", "số tài khoản", "rek.": a number right after such a word is
that person's identifier or account, whether or not python-stdnum has a validator for its country
(`identifiers.local_ids`). Gathered for memgit by a translator who never read its rules, then
trimmed of the words that also name public or ordinary things: company and VAT numbers (ОГРН, IČO,
CIF, org.nr, REGON), words with an everyday sense alone ("NAS", "tk", "stk", "MST", "PIB"), and
two-letter abbreviations. `tests/lint/test_id_names.py` holds one identifier and one look-alike
line for a word of each script.
"""

from __future__ import annotations


def _w(text: str) -> tuple[str, ...]:
    return tuple(word.strip() for word in text.split("|") if word.strip())


#: language -> words before a personal identifier (national ID, social security, tax, passport,
#: driving licence, health insurance, residence permit, voter card numbers).
IDENTITY: dict[str, tuple[str, ...]] = {
    "en": _w(
        "ssn|social security number|social security no|national insurance number|NI number|NINO|passport no|passport number|driver's license|driver's license no|driving licence number|DL#|tax id|tax id number|ITIN|NHS number|national id number|id card number|medicare number|residence permit number"
    ),
    "de": _w(
        "personalausweisnummer|ausweisnummer|ausweis-nr|perso|perso-nr|reisepassnummer|passnummer|pass-nr|steuer-id|steuer-idnr|steuernummer|steuer-nr|steuerliche identifikationsnummer|sozialversicherungsnummer|sozialvers.-nr.|sozialvers.-nr|sv-nummer|sv-nr|rentenversicherungsnummer|führerscheinnummer|krankenversichertennummer|versichertennummer|AHV-Nr|aufenthaltstitel|aufenthaltserlaubnis|aufenthaltstitelnummer"
    ),
    "fr": _w(
        "n° sécu|numéro de sécurité sociale|n° de sécurité sociale|n° ss|NIR|CNI|n° CNI|n° carte d'identité|n° de passeport|numéro de passeport|n° fiscal|numéro fiscal|n° permis|permis de conduire n°|n° titre de séjour|titre de séjour|n° carte vitale|n° AVS|numéro d'assurance sociale"
    ),
    "es": _w(
        "DNI|NIE|NIF|nº de pasaporte|número de pasaporte|pasaporte nº|nº de la seguridad social|nº seg. social|NUSS|CURP|RFC|RUT|CUIT|CUIL|cédula|cédula de identidad|nº de licencia de conducir|carnet de conducir|tarjeta sanitaria"
    ),
    "pt": _w(
        "CPF|CNH|nº do passaporte|número do passaporte|cartão de cidadão|nº do cartão de cidadão|NIF|nº de contribuinte|NISS|nº de utente|nº do BI|título de eleitor|carteira de identidade|CTPS|cartão SUS|autorização de residência|carteirinha do plano|carteirinha|cartão do SUS|passaporte"
    ),
    "it": _w(
        "codice fiscale|cod. fisc.|C.F.|carta d'identità|n. carta d'identità|n. passaporto|numero di passaporto|passaporto n.|n. patente|patente n.|numero patente|tessera sanitaria|n. tessera sanitaria|partita IVA|P.IVA|permesso di soggiorno|n. permesso di soggiorno|tessera elettorale"
    ),
    "nl": _w(
        "BSN|burgerservicenummer|sofinummer|paspoortnummer|paspoortnr|rijbewijsnummer|rijbewijsnr|ID-kaartnummer|identiteitskaartnummer|documentnummer|rijksregisternummer|rijksregisternr|INSZ|fiscaal nummer|btw-nummer|verblijfsvergunningnummer|zorgverzekeringsnummer"
    ),
    "pl": _w(
        "PESEL|nr dowodu|numer dowodu|nr dowodu osobistego|numer dowodu osobistego|seria i numer dowodu|nr paszportu|numer paszportu|nr prawa jazdy|numer prawa jazdy|nr karty pobytu|karta pobytu|nr ubezpieczenia"
    ),
    "ru": _w(
        "паспорт|серия и номер паспорта|номер паспорта|паспорт серия|ИНН|СНИЛС|загранпаспорт|номер загранпаспорта|полис ОМС|номер полиса ОМС|водительское удостоверение|номер прав|вид на жительство|ВНЖ|удостоверение личности"
    ),
    "uk": _w(
        "паспорт|номер паспорта|серія та номер паспорта|серія і номер паспорта|ІПН|РНОКПП|ідентифікаційний код|ідентифікаційний номер|податковий номер|ID-картка|закордонний паспорт|посвідчення водія|водійське посвідчення|номер посвідчення водія|УНЗР|ЄДРПОУ|посвідка на проживання"
    ),
    "tr": _w(
        "TC kimlik no|T.C. kimlik no|TCKN|TC no|kimlik no|kimlik numarası|nüfus cüzdanı no|pasaport no|pasaport numarası|vergi no|vergi numarası|VKN|ehliyet no|sürücü belgesi no|SGK no|sigorta sicil no|ikamet izni no|YKN|yabancı kimlik no"
    ),
    "ar": _w(
        "رقم الهوية|الرقم القومي|الرقم الوطني|رقم البطاقة الشخصية|بطاقة الهوية|هوية وطنية|رقم جواز السفر|رقم الجواز|جواز السفر|رقم الإقامة|رقم الاقامة|السجل المدني|رقم السجل المدني|الرقم المدني|رقم رخصة القيادة|رخصة القيادة|الرقم الضريبي|رقم الضمان الاجتماعي|الرقم التأميني|رقم بطاقة الناخب"
    ),
    "fa": _w(
        "کد ملی|کدملی|شماره ملی|کارت ملی|شماره شناسنامه|شماره گذرنامه|شماره پاسپورت|شماره گواهینامه|گواهینامه رانندگی|کد اقتصادی|شماره بیمه|شماره بیمه تامین اجتماعی|کد فراگیر|شناسه ملی|کد مالیاتی|شماره پروانه اقامت"
    ),
    "he": _w(
        "ת.ז.|ת.ז|ת\"ז|תעודת זהות|מספר זהות|מס' זהות|מס' ת.ז|מספר תעודת זהות|מספר דרכון|מס' דרכון|דרכון|מספר רישיון נהיגה|רישיון נהיגה|מספר ביטוח לאומי|עוסק מורשה|מספר עוסק"
    ),
    "hi": _w(
        "आधार|आधार नंबर|आधार संख्या|आधार कार्ड|Aadhaar|Aadhaar no|पैन नंबर|पैन कार्ड|PAN no|PAN card|पासपोर्ट नंबर|पासपोर्ट संख्या|ड्राइविंग लाइसेंस|DL no|वोटर आईडी|मतदाता पहचान पत्र|EPIC no|राशन कार्ड नंबर|पहचान पत्र संख्या"
    ),
    "bn": _w(
        "জাতীয় পরিচয়পত্র|জাতীয় পরিচয়পত্র নম্বর|এনআইডি|এনআইডি নম্বর|NID no|পাসপোর্ট নম্বর|পাসপোর্ট নং|টিআইএন|ই-টিআইএন|e-TIN|TIN no|ড্রাইভিং লাইসেন্স|জন্ম নিবন্ধন নম্বর|আধার নম্বর|প্যান নম্বর|ভোটার আইডি|ভোটার কার্ড নম্বর"
    ),
    "ur": _w(
        "شناختی کارڈ|شناختی کارڈ نمبر|قومی شناختی کارڈ|CNIC|CNIC no|پاسپورٹ نمبر|NTN|این ٹی این|ٹیکس نمبر|ڈرائیونگ لائسنس|لائسنس نمبر|ب فارم|B-form|NICOP|آدھار نمبر"
    ),
    "zh": _w(
        "身份证号|身份证号码|身份证|护照号|护照号码|社保号|社会保障号|驾驶证号|驾照号|纳税人识别号|医保卡号|居住证号|港澳通行证|身分證字號|身份證號碼|護照號碼|健保卡號|居留證號"
    ),
    "ja": _w(
        "マイナンバー|マイナンバーカード|個人番号|パスポート番号|旅券番号|免許証番号|運転免許証番号|基礎年金番号|年金番号|保険証番号|被保険者番号|記号番号|在留カード番号|住民票コード"
    ),
    "ko": _w(
        "주민등록번호|주민번호|주민 번호|외국인등록번호|여권번호|여권 번호|운전면허번호|면허번호|사업자등록번호|사업자번호|건강보험증번호|개인통관고유부호|통관부호|주민등록증 번호"
    ),
    "vi": _w(
        "CMND|CCCD|số CMND|số CCCD|chứng minh nhân dân|căn cước công dân|số căn cước|hộ chiếu|số hộ chiếu|mã số thuế|số BHXH|mã số BHXH|số BHYT|mã thẻ BHYT|giấy phép lái xe|GPLX|số GPLX|số định danh|mã định danh"
    ),
    "id": _w(
        "NIK|no. KTP|nomor KTP|KTP|paspor|no. paspor|nomor paspor|NPWP|no. NPWP|no. SIM|nomor SIM|no. KK|nomor kartu keluarga|no. BPJS|nomor BPJS|KITAS|no. KITAS|KITAP|nomor induk kependudukan"
    ),
    "th": _w(
        "เลขบัตรประชาชน|บัตรประชาชน|เลขประจำตัวประชาชน|เลขบัตร ปชช.|เลขประจำตัวผู้เสียภาษี|เลขผู้เสียภาษี|เลขที่หนังสือเดินทาง|หนังสือเดินทาง|เลขพาสปอร์ต|พาสปอร์ต|เลขที่ใบขับขี่|ใบขับขี่|เลขประกันสังคม|เลขที่ใบอนุญาตทำงาน|เลข 13 หลัก"
    ),
    "sw": _w(
        "namba ya kitambulisho|nambari ya kitambulisho|kitambulisho cha taifa|kitambulisho|NIDA|namba ya NIDA|ID no|namba ya pasipoti|KRA PIN|namba ya TIN|leseni ya udereva|namba ya leseni|NSSF no|NHIF no|namba ya mpiga kura|kadi ya mpiga kura|huduma namba"
    ),
    "tl": _w(
        "SSS no|SSS number|TIN no|TIN number|PhilHealth no|Pag-IBIG no|UMID|passport no|numero ng pasaporte|driver's license no|PhilSys|PhilSys number|national ID no|voter's ID|GSIS no|postal ID"
    ),
    "sv": _w(
        "personnummer|pers.nr|personnr|pnr|samordningsnummer|passnummer|passnr|körkortsnummer|körkortsnr|ID-kortsnummer|organisationsnummer|uppehållstillstånd|UT-kort|LMA-kort"
    ),
    "no": _w(
        "fødselsnummer|fødselsnr|fnr|f.nr|personnummer|D-nummer|D-nr|passnummer|passnr|førerkortnummer|ID-kortnummer|oppholdstillatelse"
    ),
    "da": _w(
        "CPR-nr|CPR-nummer|CPR|personnummer|pasnummer|pasnr|kørekortnummer|kørekortnr|CVR-nr|CVR-nummer|sygesikringsbevis|sundhedskort|opholdstilladelse|SE-nr"
    ),
    "fi": _w(
        "henkilötunnus|hetu|sotu|passin numero|passinumero|ajokortin numero|henkilökortin numero|henkilökortin nro|Y-tunnus|verotunniste|veronumero|Kela-kortin numero|oleskelulupa|oleskeluluvan numero"
    ),
    "cs": _w(
        "rodné číslo|číslo OP|č. OP|číslo občanského průkazu|občanský průkaz|číslo pasu|č. pasu|cestovní pas č.|řidičský průkaz|číslo ŘP|číslo pojištěnce|povolení k pobytu"
    ),
    "sk": _w(
        "rodné číslo|číslo OP|č. OP|číslo občianskeho preukazu|občiansky preukaz|číslo pasu|č. pasu|vodičský preukaz|číslo VP|IČ DPH|číslo poistenca|povolenie na pobyt"
    ),
    "hu": _w(
        "személyi igazolvány szám|személyi igazolvány száma|személyi ig. szám|szig. szám|szem.ig.sz.|személyi szám|TAJ szám|adóazonosító jel|adóazonosító|adószám|útlevélszám|útlevél szám|jogosítvány szám|vezetői engedély száma|lakcímkártya szám|tartózkodási engedély"
    ),
    "ro": _w(
        "CNP|cod numeric personal|serie CI|CI seria|nr. buletin|seria buletin|carte de identitate|nr. pașaport|număr pașaport|pașaport nr.|permis de conducere|nr. permis|CUI|cod fiscal|permis de ședere|card de sănătate"
    ),
    "el": _w(
        "ΑΦΜ|Α.Φ.Μ.|ΑΜΚΑ|Α.Μ.Κ.Α.|ΑΔΤ|Α.Δ.Τ.|αριθμός ταυτότητας|αρ. ταυτότητας|αρ. δελτίου ταυτότητας|αριθμός διαβατηρίου|αρ. διαβατηρίου|ΑΜΑ|ΑΜ ΙΚΑ|δίπλωμα οδήγησης|αριθμός διπλώματος|άδεια διαμονής"
    ),
    "lt": _w(
        "asmens kodas|asmens tapatybės kortelė|ATK nr.|paso numeris|paso nr.|vairuotojo pažymėjimas|vairuotojo pažymėjimo nr.|mokėtojo kodas|PVM kodas|įmonės kodas|leidimas gyventi|socialinio draudimo numeris"
    ),
    "lv": _w(
        "personas kods|pers. kods|ID kartes numurs|pases numurs|pases nr.|autovadītāja apliecība|vadītāja apliecības nr.|nodokļu maksātāja numurs|reģistrācijas numurs|PVN numurs|uzturēšanās atļauja"
    ),
    "et": _w(
        "isikukood|isikukoodi|ID-kaardi number|ID-kaardi nr|passi number|passi nr|juhiloa number|juhiluba|registrikood|KMKR nr|elamisluba|elamisloa number"
    ),
    "sq": _w(
        "numri personal|nr. personal|numri i letërnjoftimit|nr. letërnjoftimit|letërnjoftim|numri i pasaportës|nr. pasaportës|patentë shoferi|nr. patentës|numri i sigurimeve shoqërore|leje qëndrimi|numri fiskal"
    ),
    "ka": _w(
        "პირადი ნომერი|პ/ნ|პ.ნ.|პირადობის მოწმობა|პირადობის მოწმობის ნომერი|პასპორტის ნომერი|მართვის მოწმობა|მართვის მოწმობის ნომერი|საიდენტიფიკაციო კოდი|ს/კ|ბინადრობის ნებართვა"
    ),
    "bg": _w(
        "ЕГН|ЛНЧ|лична карта|л.к. №|номер на лична карта|паспорт №|номер на паспорт|шофьорска книжка|свидетелство за управление|БУЛСТАТ|ДДС номер|разрешение за пребиваване|здравноосигурителен номер"
    ),
    "sr": _w(
        "ЈМБГ|JMBG|матични број|matični broj|лична карта|lična karta|број личне карте|broj lične karte|број пасоша|broj pasoša|возачка дозвола|vozačka dozvola|ПИБ|boravišna dozvola|боравишна дозвола"
    ),
    "ca": _w(
        "DNI|NIE|NIF|núm. de passaport|número de passaport|passaport núm.|núm. de la seguretat social|NUSS|carnet de conduir|núm. targeta sanitària|targeta sanitària|permís de residència"
    ),
    "ms": _w(
        "no. kp|no. KP|no. IC|IC no|NRIC|MyKad|no. MyKad|kad pengenalan|nombor kad pengenalan|no. pasport|nombor pasport|no. lesen memandu|lesen memandu|no. cukai pendapatan|nombor cukai pendapatan|no. KWSP|no. PERKESO|no. SOCSO"
    ),
    "ta": _w(
        "ஆதார் எண்|ஆதார்|Aadhaar|பான் எண்|PAN no|கடவுச்சீட்டு எண்|பாஸ்போர்ட் எண்|ஓட்டுநர் உரிமம்|ஓட்டுநர் உரிம எண்|வாக்காளர் அடையாள அட்டை|வாக்காளர் அட்டை எண்|குடும்ப அட்டை எண்|தேசிய அடையாள அட்டை|அடையாள அட்டை எண்|NIC no"
    ),
    "te": _w(
        "ఆధార్|ఆధార్ నంబర్|ఆధార్ సంఖ్య|Aadhaar|పాన్ నంబర్|పాన్ కార్డు|PAN no|పాస్‌పోర్ట్ నంబర్|డ్రైవింగ్ లైసెన్స్|ఓటరు గుర్తింపు కార్డు|ఓటర్ ఐడి|రేషన్ కార్డు నంబర్|గుర్తింపు కార్డు సంఖ్య"
    ),
    "mr": _w(
        "आधार|आधार क्रमांक|आधार नंबर|Aadhaar|पॅन क्रमांक|पॅन नंबर|PAN no|पासपोर्ट क्रमांक|पासपोर्ट नंबर|वाहन चालक परवाना|ड्रायव्हिंग लायसन्स|मतदार ओळखपत्र|ओळखपत्र क्रमांक|रेशन कार्ड क्रमांक"
    ),
    "gu": _w(
        "આધાર|આધાર નંબર|આધાર કાર્ડ|Aadhaar|પાન નંબર|પાન કાર્ડ|PAN no|પાસપોર્ટ નંબર|ડ્રાઇવિંગ લાઇસન્સ|મતદાર ઓળખપત્ર|ચૂંટણી કાર્ડ|રેશન કાર્ડ નંબર"
    ),
    "pa": _w(
        "ਆਧਾਰ|ਆਧਾਰ ਨੰਬਰ|ਆਧਾਰ ਕਾਰਡ|Aadhaar|ਪੈਨ ਨੰਬਰ|ਪੈਨ ਕਾਰਡ|PAN no|ਪਾਸਪੋਰਟ ਨੰਬਰ|ਡਰਾਈਵਿੰਗ ਲਾਇਸੈਂਸ|ਵੋਟਰ ਕਾਰਡ|ਵੋਟਰ ਆਈਡੀ|ਸ਼ਨਾਖਤੀ ਕਾਰਡ|CNIC"
    ),
    "am": _w(
        "የመታወቂያ ቁጥር|መታወቂያ ቁጥር|የቀበሌ መታወቂያ|የብሔራዊ መታወቂያ ቁጥር|ፋይዳ|Fayda|የፓስፖርት ቁጥር|ፓስፖርት ቁጥር|የግብር ከፋይ መለያ ቁጥር|ቲን ቁጥር|TIN no|የመንጃ ፈቃድ ቁጥር|መንጃ ፈቃድ"
    ),
    "ha": _w(
        "lambar shaidar ɗan ƙasa|NIN|lambar NIN|katin shaida|lambar katin shaida|lambar fasfo|fasfo|lasisin tuƙi|lambar lasisin tuƙi|katin zaɓe|lambar katin zaɓe|BVN|TIN no"
    ),
    "ga": _w(
        "uimhir PSP|PPSN|PPS number|PPS no|uimhir phearsanta seirbhíse poiblí|uimhir phas|uimhir pas|uimhir cheadúnais tiomána|ceadúnas tiomána|uimhir chánach|uimhir árachais shóisialaigh|uimhir chárta aitheantais"
    ),
    "yo": _w(
        "nọ́mbà ìdánimọ̀|nomba idanimo|NIN|nọ́mbà NIN|káàdì ìdánimọ̀|kaadi idanimo|nọ́mbà ìwé ìrìnnà|ìwé ìrìnnà|ìwé àṣẹ ìwakọ̀|nọ́mbà ìwé àṣẹ ìwakọ̀|káàdì ìdìbò|BVN|TIN no"
    ),
}

#: language -> words before a bank account number.
ACCOUNT: dict[str, tuple[str, ...]] = {
    "en": _w("account|account no|account number|acct|acct no|acc no|a/c|a/c no|bank account|bank acct"),
    "de": _w("kontonummer|konto-nr|kto-nr|ktonr|kto.|bankverbindung|bankkonto"),
    "fr": _w("n° de compte|numéro de compte|n° compte|compte bancaire|cpte|n° cpte"),
    "es": _w(
        "nº de cuenta|número de cuenta|nº cuenta|cuenta bancaria|cta.|nº cta|CBU|CLABE|cuenta corriente|cuenta de ahorros|cuenta de ahorro"
    ),
    "pt": _w("nº da conta|número da conta|conta bancária|c/c|conta corrente|ag/conta"),
    "it": _w("n. conto|numero di conto|conto corrente|c/c|conto bancario|n. c/c"),
    "nl": _w("rekeningnummer|rekeningnr|rek.nr.|reknr|bankrekening|bankrekeningnummer"),
    "pl": _w("nr konta|numer konta|konto bankowe|rachunek bankowy|nr rachunku|numer rachunku|nr rach."),
    "ru": _w("номер счета|номер счёта|расчетный счет|расчётный счёт|счет №|счёт №|лицевой счет|банковский счет"),
    "uk": _w("номер рахунку|рахунок №|розрахунковий рахунок|банківський рахунок"),
    "tr": _w("hesap no|hesap numarası|banka hesabı|hesap nr|banka hesap no"),
    "ar": _w(
        "الحساب|رقم الحساب|رقم حساب|رقم الحساب البنكي|حساب بنكي|الحساب البنكي|رقم الآيبان|آيبان|حساب جاري|حساب التوفير"
    ),
    "fa": _w("شماره حساب|شماره شبا|شبا|حساب بانکی|شماره حساب بانکی"),
    "he": _w("מס' חשבון|מספר חשבון|חשבון בנק|ח-ן|חשבון מס'|מס' ח-ן"),
    "hi": _w("खाता संख्या|खाता नंबर|खाता सं.|अकाउंट नंबर|बैंक खाता|बैंक खाता संख्या|A/c no|khata no"),
    "bn": _w("হিসাব নম্বর|হিসাব নং|অ্যাকাউন্ট নম্বর|একাউন্ট নং|একাউন্ট নম্বর|ব্যাংক হিসাব|A/C no"),
    "ur": _w("اکاؤنٹ نمبر|اکاونٹ نمبر|کھاتہ نمبر|بینک اکاؤنٹ|A/C no"),
    "zh": _w("银行账号|银行帐号|银行账户|银行卡号|收款账号|開戶帳號|銀行帳號|銀行帳戶"),
    "ja": _w("口座番号|銀行口座|口座No|振込先|普通預金|振込口座|普通"),  # "普通 7204815": a savings account
    "ko": _w("계좌번호|계좌 번호|은행 계좌|입금계좌|입금 계좌"),
    "vi": _w("số tài khoản|số tk|tài khoản ngân hàng|TKNH|STK"),
    "id": _w("rek.|no. rek|no rek|norek|rekening|nomor rekening|no. rekening|rek. bank"),
    "th": _w("เลขที่บัญชี|เลขบัญชี|บัญชีเลขที่|บัญชีธนาคาร|บช.|บัญชี"),
    "sw": _w("namba ya akaunti|nambari ya akaunti|akaunti ya benki|A/C|acc no|account no"),
    "tl": _w("account no|acct no|acc no|numero ng account|bank account|acct #"),
    "sv": _w("kontonummer|kontonr|konto nr|clearingnummer|clearingnr|bankkonto|bankgiro|plusgiro"),
    "no": _w("kontonummer|kontonr|konto nr|kto.nr|bankkonto"),
    "da": _w("kontonummer|kontonr|konto nr|reg.nr|reg. nr.|bankkonto"),
    "fi": _w("tilinumero|tilinro|tili nro|pankkitili|pankkitilin numero"),
    "cs": _w("číslo účtu|č. účtu|č. ú.|bankovní účet|účet č."),
    "sk": _w("číslo účtu|č. účtu|č. ú.|bankový účet|účet č."),
    "hu": _w("számlaszám|bankszámlaszám|bankszámla|bankszámla szám"),
    "ro": _w("cont IBAN|nr. cont|număr de cont|cont bancar|cont nr."),
    "el": _w("αριθμός λογαριασμού|αρ. λογαριασμού|αρ. λογ.|τραπεζικός λογαριασμός|λογ/σμός"),
    "lt": _w("sąskaitos numeris|sąsk. nr.|atsiskaitomoji sąskaita|banko sąskaita"),
    "lv": _w("konta numurs|konta nr.|norēķinu konts|bankas konts"),
    "et": _w("arveldusarve|arvelduskonto|kontonumber|pangakonto|konto nr"),
    "sq": _w("numri i llogarisë|nr. llogarisë|nr. i llogarisë|llogari bankare"),
    "ka": _w("ანგარიშის ნომერი|ა/ა|ანგ. ნომერი|საბანკო ანგარიში"),
    "bg": _w("банкова сметка|номер на сметка|сметка №"),
    "sr": _w("текући рачун|tekući račun|број рачуна|broj računa|жиро рачун|žiro račun"),
    "ca": _w("núm. de compte|número de compte|núm. compte|compte bancari|compte corrent|c/c"),
    "ms": _w("no. akaun|no akaun|nombor akaun|akaun bank|acc no|acct no"),
    "ta": _w("கணக்கு எண்|வங்கிக் கணக்கு|வங்கி கணக்கு எண்|அக்கவுண்ட் நம்பர்|A/c no"),
    "te": _w("ఖాతా నంబర్|ఖాతా సంఖ్య|బ్యాంక్ ఖాతా|అకౌంట్ నంబర్|A/c no"),
    "mr": _w("खाते क्रमांक|खाते नंबर|बँक खाते|अकाउंट नंबर|A/c no"),
    "gu": _w("ખાતા નંબર|ખાતા નં.|બેંક ખાતું|એકાઉન્ટ નંબર|A/c no"),
    "pa": _w("ਖਾਤਾ ਨੰਬਰ|ਬੈਂਕ ਖਾਤਾ|ਅਕਾਊਂਟ ਨੰਬਰ|A/c no"),
    "am": _w("የሂሳብ ቁጥር|ሂሳብ ቁጥር|የባንክ ሂሳብ|አካውንት ቁጥር|A/C no"),
    "ha": _w("lambar asusu|lambar asusun banki|asusun banki|acct no|account no"),
    "ga": _w("uimhir chuntais|uimh. chuntais|cuntas bainc|account no"),
    "yo": _w("nọ́mbà àkáǹtì|nomba akanti|àkáǹtì báǹkì|acct no|account no"),
}


#: The word for "number" (and its abbreviations) that people put between a document's or an
#: account's name and its value, in the languages above ("paspor RI nomor …", "Kitambulisho (ID)
#: no. …", "บัญชี … เลขที่ …"): a mark, like ":", never a name by itself. Abbreviations that need
#: their period keep it ("no.", "nr.": "no" and "nr" alone are words too).
NUMBER_WORDS = _w(
    "number|numbers|nummer|numéro|numero|número|numer|numeru|nomor|nombor|numara|numarası|numarasi|nambari|namba"
    "|numri|numurs|numeris|broj|číslo|cislo|szám|száma|bilang|số|αριθμός|αρ.|номер|номера"
    "|no.|nr.|n°.|nº.|n°|nº|n.º|nro.|núm.|č.|№|#|번호|番号|号码|號碼|เลขที่|เลข|رقم|شماره|מספר|מס'|नंबर|संख्या|নম্বর|নং|نمبر"
)

#: The words that follow an account's number with its holder's name or its branch's code
#: ("0881726453 a.n. Hartono", "110-482-917305 예금주 DIMAS", "15670100218834, IFSC FDRL0001567"):
#: what stands before them is an account.
HOLDER_WORDS = _w(
    "a.n.|a/n|atas nama|IFSC|chủ tk|nama rekening|account name|account holder|acct name|name on account|kontoinhaber"
    "|kontoinhaberin|titular de la cuenta|titular da conta|hesap sahibi|예금주|口座名義|名義|户名|戶名|ชื่อบัญชี"
    "|владелец счета|владелец счёта|власник рахунку|tên tài khoản|chủ tài khoản"
)
