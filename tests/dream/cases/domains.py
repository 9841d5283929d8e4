"""The text the case generator (generator.py) draws from: five domains, each a cast, section names,
facts in several wordings and the questions people ask about them. Written for memgit's tests.

Placeholders: `{role}` a cast member's full name, `{role_f}` the first name, `{role_S}` / `{role_p}`
the capitalised subject pronoun / possessive ("She" / "her"); `{in:N:style}` the date N days after
the line's own log, `{at:N:style}` the date N days after the case's first day; styles `us`
("Thu 4/16"), `dm` ("16 April"), `long` ("Thursday 16 April").

Fact kinds (labels as in runner.py): D durable, T transient, C chatter, N needs context. A fact with
several `versions` changes during the month (each version a list of wordings); `asks` are the
questions people search for it with (one list per version, or one for all). `slot` is the kind of
value that changes: owner, time, date, place, preference, amount. `weekday` pins the line to a log
of that weekday (0 Monday), for relative dates whose meaning depends on it; `heading` puts it in a
section of its own ("Call with {coach}"), so a pronoun has its person only there.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Fact:
    kind: str
    versions: tuple[tuple[str, ...], ...]
    asks: tuple[tuple[str, ...], ...] = ()
    slot: str = ""
    heading: str = ""
    weekday: int | None = None
    #: how many days the questions about it are asked on (transient noise is asked too)
    ask_days: int = 4


def one(*wordings: str) -> tuple[tuple[str, ...], ...]:
    return (tuple(wordings),)


@dataclass(frozen=True)
class Domain:
    name: str
    start: str  # a Monday
    cast: dict[str, tuple[str, ...]]  # role -> "First Last|she" choices
    sections: tuple[str, ...]
    facts: tuple[Fact, ...]
    chatter: tuple[str, ...]
    unclear: tuple[str, ...]
    secret: tuple[str, ...] = field(default=())  # wordings with {secret}


TEAM = Domain(
    "team",
    "2026-04-06",
    {
        "lead": ("Marta Kowalczyk|she", "Helga Brandt|she", "Dev Anand|he"),
        "eng": ("Kwame Osei|he", "Lucía Ferreira|she", "Tobias Lindqvist|he"),
        "pm": ("Noor Haddad|she", "Felix Moreau|he", "Yuki Tanaka|she"),
        "ops": ("Sanjay Pillai|he", "Greta Holm|she", "Omar Farouk|he"),
    },
    ("stand-up", "notes", "planning", "afternoon"),
    (
        Fact(
            "D",
            (
                ("{eng} is the release manager for the mobile app.", "Mobile app releases are managed by {eng}."),
                (
                    "{ops} has taken on the release manager role for the mobile app.",
                    "Release management for the mobile app passed to {ops}.",
                ),
            ),
            (("who manages mobile releases", "mobile app release manager", "who cuts the app release"),),
            slot="owner",
        ),
        Fact(
            "D",
            (
                ("The sprint retro is every other Friday at 15:00.", "Retros happen every second Friday at 15:00."),
                (
                    "The sprint retro shifted to alternate Thursdays at 14:00.",
                    "Going forward the retro is every second Thursday at 14:00.",
                ),
            ),
            (("when is the retro", "retrospective day and time", "what time is the sprint retrospective"),),
            slot="time",
        ),
        Fact(
            "D",
            (
                ("The public beta launch is set for {at:36:dm}.", "Public beta goes live on {at:36:dm}."),
                ("The beta launch slipped to {at:50:dm}.", "Public beta now targets {at:50:dm}."),
                ("The beta launch slipped once more, to {at:57:dm}.", "Beta date pushed once more: {at:57:dm}."),
            ),
            (("beta launch date", "when does the public beta ship", "beta go-live"),),
            slot="date",
        ),
        Fact(
            "D",
            (
                (
                    "{pm} prefers written status updates in the channel over a daily call.",
                    "{pm} wants status updates written in the channel rather than a call each day.",
                ),
                (
                    "{pm} reversed course: a short daily status call again instead of written updates.",
                    "{pm} now prefers a short daily status call to written updates.",
                ),
            ),
            (("how does the pm want status updates", "status update format", "daily call or written updates"),),
            slot="preference",
        ),
        Fact(
            "D",
            (
                (
                    "The monthly cloud budget is capped at 4,000 euros.",
                    "Cloud spend may not exceed 4,000 euros a month.",
                ),
                (
                    "Finance raised the monthly cloud budget cap to 5,500 euros.",
                    "The cloud budget cap went up to 5,500 euros a month.",
                ),
            ),
            (("cloud budget cap", "how much can we spend on cloud", "monthly cloud spending limit"),),
            slot="amount",
        ),
        Fact(
            "D",
            one(
                "The on-prem build server sits in rack B of the Leeds office.",
                "Our on-prem build server lives in the Leeds office, rack B.",
            ),
            (("where is the build server", "build server location", "which rack holds the build machine"),),
            slot="place",
        ),
        Fact(
            "D",
            one(
                "Starting this week, no production deploys after 16:00 on Fridays.",
                "Standing rule: nobody deploys to production after 16:00 on a Friday.",
            ),
            (("friday deploy cutoff", "can we deploy on friday afternoon", "production deploy rules"),),
        ),
        Fact(
            "D",
            one(
                "Every pull request needs two approvals before it is merged.",
                "Pull requests always need two approving reviews before merge.",
            ),
            (("how many approvals does a pr need", "review rules for pull requests", "merge approval policy"),),
        ),
        Fact(
            "D",
            one(
                "Design review happens every Wednesday at 10:30 in the Kestrel room.",
                "The weekly design review is on Wednesdays, 10:30, Kestrel room.",
            ),
            (("when is design review", "design review room", "weekly design review time"),),
        ),
        Fact(
            "D",
            one(
                "{lead_S} wants weekly risk notes by Thursday noon.",
                "{lead_S} asks for risk notes every Thursday by noon.",
            ),
            (("when are risk notes due", "risk notes deadline", "who wants the weekly risk notes"),),
            heading="1:1 with {lead}",
        ),
        Fact(
            "D",
            one("The partner API allows 600 requests per minute.", "Partner API rate limit: 600 requests a minute."),
            (("partner api rate limit", "requests per minute for partners", "api throttling limit"),),
        ),
        Fact(
            "T",
            one("{eng_f} finished the load test on Saturday.", "{eng_f} wrapped up the load test on Saturday."),
            (("when was the load test done", "load test status"),),
            weekday=0,
            ask_days=3,
        ),
        Fact(
            "T",
            one("The vendor demo is next Tuesday at 13:00.", "Vendor demo booked for next Tuesday, 13:00."),
            (("vendor demo time", "when is the vendor demo"),),
            ask_days=3,
        ),
        Fact(
            "T",
            one(
                "Office wifi maintenance in two days' time from 07:00.",
                "Wifi in the office goes down for maintenance in two days, 07:00.",
            ),
            (("office wifi maintenance",),),
            ask_days=2,
        ),
        Fact(
            "T",
            one("Offsite planning call on {in:3:us} at 11:00.", "Planning call for the offsite: {in:3:us}, 11:00."),
            (("offsite planning call", "when is the offsite call"),),
            ask_days=3,
        ),
        Fact("T", one("Staging has been flaky since this morning.", "Staging keeps timing out today."), ask_days=1),
    ),
    (
        "Thanks everyone, great demo today!",
        "Who left their mug in meeting room two?",
        "Happy Friday folks!",
        "can someone share the call link?",
    ),
    ("It failed again after the patch.", "They said they would look into it.", "That was the plan anyway."),
    ("Temporary deploy token for the pipeline: {secret}",),
)


TEACHER = Domain(
    "teacher",
    "2026-09-07",
    {
        "head": ("Priya Natarajan|she", "Graham Whitfield|he", "Ingrid Solberg|she"),
        "colleague": ("Mateo Ruiz|he", "Aisha Bello|she", "Jonas Weber|he"),
        "parent": ("Claire Dubois|she", "Ravi Menon|he", "Sofia Rossi|she"),
        "ta": ("Ben Carter|he", "Leah Goldberg|she", "Hamid Rahimi|he"),
    },
    ("before class", "lesson notes", "after school", "staff room"),
    (
        Fact(
            "D",
            (
                ("{colleague} coordinates the year 9 science fair.", "The year 9 science fair is run by {colleague}."),
                (
                    "{ta} has picked up the science fair from {colleague_f}.",
                    "The science fair coordinator is now {ta}.",
                ),
            ),
            (("who runs the science fair", "science fair coordinator", "science fair contact person"),),
            slot="owner",
        ),
        Fact(
            "D",
            (
                ("Detention is held on Tuesdays at 15:30.", "After-school detention runs Tuesdays, 15:30."),
                ("Detention moved to Thursdays at 15:45.", "From next week detention is on Thursdays at 15:45."),
            ),
            (("when is detention", "detention day", "what time does detention start"),),
            slot="time",
        ),
        Fact(
            "D",
            (
                ("Year 10 coursework is due on {at:30:long}.", "The year 10 coursework deadline is {at:30:long}."),
                (
                    "The year 10 coursework deadline was pushed back to {at:44:long}.",
                    "Year 10 coursework now due {at:44:long}.",
                ),
            ),
            (("coursework deadline year 10", "when is the coursework due", "year 10 hand-in date"),),
            slot="date",
        ),
        Fact(
            "D",
            (
                ("Parents' evening is held in the main hall.", "We host parents' evening in the main hall."),
                (
                    "Parents' evening moves to the library this term.",
                    "Parents' evening is in the library going forward.",
                ),
            ),
            (("where is parents evening", "parents evening room", "parents' evening venue"),),
            slot="place",
        ),
        Fact(
            "D",
            (
                (
                    "{parent} prefers to be contacted by email, not phone.",
                    "Email is the way to reach {parent}; no phone calls.",
                ),
                ("{parent} now prefers a phone call over email.", "{parent} asked to be phoned instead of emailed."),
            ),
            (("how to contact the parent", "parent contact preference", "email or phone for the parent"),),
            slot="preference",
        ),
        Fact(
            "D",
            one(
                "The photocopy allowance is 500 pages a month per teacher.", "Each teacher may copy 500 pages a month."
            ),
            (("photocopy allowance", "how many copies can I make", "monthly printing limit"),),
            slot="amount",
        ),
        Fact(
            "D",
            one("Phones are never allowed in the science labs.", "No phones in the science labs at any time."),
            (("phones in the lab", "lab phone rule", "are mobiles allowed in science labs"),),
        ),
        Fact(
            "D",
            one(
                "The department meeting is every Monday at 16:00 in room 14.",
                "Department meetings happen each Monday, 16:00, room 14.",
            ),
            (("department meeting time", "when do we meet as a department", "department meeting room"),),
        ),
        Fact(
            "D",
            one(
                "{head_S} expects lesson plans uploaded by Sunday evening.",
                "{head_S} wants lesson plans on the drive by Sunday night.",
            ),
            (("lesson plan upload deadline", "when are lesson plans due", "lesson plans sunday"),),
            heading="Meeting with {head}",
        ),
        Fact(
            "D",
            one(
                "Field trips need signed consent forms two weeks ahead.",
                "Consent forms for trips must be in two weeks before the trip.",
            ),
            (("field trip consent forms", "how early are trip forms due", "trip permission deadline"),),
        ),
        Fact(
            "T",
            one("{ta_f} marked the quizzes on Saturday.", "{ta_f} got through the quiz marking on Saturday."),
            (("quiz marking done", "who marked the quizzes"),),
            weekday=0,
            ask_days=3,
        ),
        Fact(
            "T",
            one("Fire drill next Wednesday during period two.", "There is a fire drill next Wednesday in period two."),
            (("fire drill", "when is the fire drill"),),
            ask_days=3,
        ),
        Fact(
            "T",
            one("The projector in room 14 is broken today.", "Room 14 projector not working this morning."),
            (("projector broken",),),
            ask_days=2,
        ),
        Fact(
            "T",
            one("Inspection visit on {in:4:dm} at 09:00.", "Inspectors visit on {in:4:dm}, 09:00."),
            (("inspection visit", "when do the inspectors come"),),
            ask_days=3,
        ),
    ),
    (
        "Lovely assembly this morning!",
        "Anyone got spare whiteboard pens?",
        "Thanks for covering my class!",
        "coffee anyone?",
    ),
    ("He did it again during lunch.", "It went better than last time.", "They forgot the forms again."),
    ("Login for the grading portal test account: {secret}",),
)


HOUSEHOLD = Domain(
    "household",
    "2026-01-12",
    {
        "partner": ("Elena Petrova|she", "Jamal Wright|he", "Hannah Schulz|she"),
        "kid": ("Mia|she", "Leo|he", "Ava|she"),
        "sitter": ("Rosa Delgado|she", "Tom Becker|he", "Nadia Karim|she"),
        "grandma": ("Grandma Ingrid|she", "Grandpa Walter|he", "Nana Lucia|she"),
    },
    ("morning", "evening", "kitchen notes", "weekend plans"),
    (
        Fact(
            "D",
            (
                ("{sitter} babysits on Wednesday evenings.", "Wednesday evenings {sitter} looks after the kids."),
                ("{sitter} now babysits on Friday evenings instead.", "Babysitting with {sitter} switched to Fridays."),
            ),
            (("when does the babysitter come", "babysitting night", "which evening is the sitter here"),),
            slot="time",
        ),
        Fact(
            "D",
            (
                ("{partner} handles the grocery order each week.", "The weekly grocery order is {partner}'s job."),
                (
                    "{grandma} is taking on the weekly grocery order.",
                    "Groceries are now ordered by {grandma} every week.",
                ),
            ),
            (("who orders groceries", "grocery order person", "who does the weekly shop"),),
            slot="owner",
        ),
        Fact(
            "D",
            (
                ("The car insurance renewal is due on {at:25:dm}.", "Car insurance renews on {at:25:dm}."),
                (
                    "Car insurance renewal pushed to {at:40:dm} after the broker call.",
                    "The car insurance now renews on {at:40:dm}.",
                ),
            ),
            (("car insurance renewal", "when does the car insurance renew", "insurance due date"),),
            slot="date",
        ),
        Fact(
            "D",
            (
                ("{kid}'s swimming lessons are at the Northside pool.", "{kid} swims at the Northside pool."),
                (
                    "{kid}'s swimming moved to the leisure centre on Elm Road.",
                    "Swimming lessons for {kid} are now at the Elm Road leisure centre.",
                ),
            ),
            (("where is swimming", "swimming lesson location", "which pool for lessons"),),
            slot="place",
        ),
        Fact(
            "D",
            (
                ("The weekly pocket money for {kid} is 5 euros.", "{kid} gets 5 euros pocket money a week."),
                ("{kid}'s pocket money went up to 7 euros a week.", "Pocket money for {kid} is 7 euros weekly now."),
            ),
            (("how much pocket money", "weekly allowance for the kid", "pocket money amount"),),
            slot="amount",
        ),
        Fact(
            "D",
            one("{kid} is allergic to peanuts.", "{kid} has a peanut allergy."),
            (("food allergies", "is the kid allergic to anything", "peanut allergy"),),
        ),
        Fact(
            "D",
            one(
                "Screens go off at 19:30 on school nights, always.",
                "On school nights the screens are always off by 19:30.",
            ),
            (("screen time rule", "when do screens go off", "school night screen cutoff"),),
        ),
        Fact(
            "D",
            one(
                "Bin collection is every Thursday morning; recycling every other week.",
                "The bins are collected each Thursday morning, recycling every second week.",
            ),
            (("bin day", "when are the bins collected", "recycling collection"),),
        ),
        Fact(
            "D",
            one(
                "The spare house key is with the neighbour at number 12.", "Neighbour at number 12 keeps our spare key."
            ),
            (("spare key", "where is the spare house key", "who has our spare key"),),
            slot="place",
        ),
        Fact(
            "D",
            one(
                "{grandma_S} prefers visits on Sunday afternoons.",
                "{grandma_S} likes us to visit on Sunday afternoons.",
            ),
            (("when to visit grandma", "grandparent visits", "best time to visit"),),
            heading="Phone call with {grandma}",
        ),
        Fact(
            "T",
            one("We cleaned out the garage on Saturday.", "The garage got cleared out on Saturday."),
            (("garage cleanup",),),
            weekday=1,
            ask_days=3,
        ),
        Fact(
            "T",
            one("Dentist for {kid} next Monday at 08:40.", "{kid} has the dentist next Monday, 08:40."),
            (("dentist appointment", "when is the dentist"),),
            ask_days=3,
        ),
        Fact(
            "T",
            one("Plumber comes {in:2:us} between 10 and 12.", "The plumber is booked for {in:2:us}, 10-12."),
            (("plumber visit", "when is the plumber coming"),),
            ask_days=3,
        ),
        Fact("T", one("The washing machine is leaking again today.", "Washer leaking this morning."), ask_days=1),
    ),
    ("What a week!", "Who finished the milk?", "Love you all", "ugh, Mondays"),
    ("She said it was fine after all.", "It stopped making that noise.", "They never called back."),
    ("Router admin login for the home network: {secret}",),
)


SHOP = Domain(
    "shop",
    "2026-06-01",
    {
        "owner": ("Farah Qureshi|she", "Luca Bianchi|he", "Emma Lindgren|she"),
        "clerk": ("Diego Santos|he", "Zoe Adams|she", "Kenji Mori|he"),
        "supplier": ("Olga Ivanova|she", "Pete Novak|he", "Amara Nwosu|she"),
        "courier": ("Hugo Laurent|he", "Ines Costa|she", "Raj Patel|he"),
    },
    ("opening", "support queue", "end of day", "stock notes"),
    (
        Fact(
            "D",
            (
                ("{clerk} answers the support inbox.", "The support inbox belongs to {clerk}."),
                ("{owner} inherited the support inbox from {clerk_f}.", "Support inbox duty moved to {owner}."),
            ),
            (("who answers support emails", "support inbox owner", "who handles the inbox"),),
            slot="owner",
        ),
        Fact(
            "D",
            (
                (
                    "The courier collects parcels at 16:00 on weekdays.",
                    "Parcel pickup by the courier is 16:00 each weekday.",
                ),
                ("Courier pickup changed to 14:30 on weekdays.", "The courier now collects at 14:30 on weekdays."),
            ),
            (("courier pickup time", "when does the courier collect", "last time to pack parcels"),),
            slot="time",
        ),
        Fact(
            "D",
            (
                ("The summer sale starts on {at:29:dm}.", "Our summer sale begins {at:29:dm}."),
                ("The summer sale start was moved to {at:43:dm}.", "Summer sale now opens {at:43:dm}."),
            ),
            (("summer sale start", "when does the sale begin", "sale launch date"),),
            slot="date",
        ),
        Fact(
            "D",
            (
                ("Returns are shipped to the Harbour Street unit.", "Returned goods go to the unit on Harbour Street."),
                (
                    "Returns now go to the new warehouse in Millbrook.",
                    "The returns address changed to the Millbrook warehouse.",
                ),
            ),
            (("returns address", "where do returns go", "return shipping destination"),),
            slot="place",
        ),
        Fact(
            "D",
            (
                ("Orders over 60 euros ship free.", "Free shipping applies from 60 euros."),
                ("The free shipping threshold was raised to 75 euros.", "Orders now ship free from 75 euros."),
            ),
            (("free shipping threshold", "minimum order for free delivery", "when is shipping free"),),
            slot="amount",
        ),
        Fact(
            "D",
            one(
                "Refunds are always issued to the original payment method.",
                "We always refund to the card or account the customer paid with.",
            ),
            (("refund method", "how are refunds paid", "refund to which account"),),
        ),
        Fact(
            "D",
            one(
                "Stock count happens on the first Monday of every month.",
                "Every month's first Monday is stock count day.",
            ),
            (("stock count day", "when do we count stock", "inventory count schedule"),),
        ),
        Fact(
            "D",
            one(
                "Customers get a reply within one business day, never later.",
                "Every customer email is answered within one business day.",
            ),
            (("reply time for customers", "support response target", "how fast do we answer emails"),),
        ),
        Fact(
            "D",
            one(
                "{supplier_S} prefers orders by email before 11:00.",
                "{supplier_S} wants our orders emailed before 11:00.",
            ),
            (("how to order from the supplier", "supplier order cutoff", "supplier ordering preference"),),
            heading="Call with {supplier}",
        ),
        Fact(
            "D",
            one(
                "Damaged items under 20 euros are refunded without a return.",
                "No return needed for damaged items below 20 euros: refund straight away.",
            ),
            (("damaged item policy", "refund without return", "small damaged orders"),),
            slot="amount",
        ),
        Fact(
            "T",
            one("{clerk_f} repacked the broken order on Sunday.", "{clerk_f} sorted out the broken order on Sunday."),
            (("broken order repacked",),),
            weekday=0,
            ask_days=3,
        ),
        Fact(
            "T",
            one("Window cleaner comes next Friday at 08:00.", "The window cleaner is booked next Friday, 08:00."),
            (("window cleaner", "when is the window cleaner"),),
            ask_days=3,
        ),
        Fact(
            "T",
            one("Card terminal offline this morning.", "The card reader is down today."),
            (("card terminal",),),
            ask_days=2,
        ),
        Fact(
            "T",
            one("Photo shoot for the new range on {in:3:long}.", "New range photo shoot booked {in:3:long}."),
            (("photo shoot", "when is the photo shoot"),),
            ask_days=3,
        ),
    ),
    ("Busy day, well done all!", "Who moved the tape gun?", "thanks!!", "any biscuits left?"),
    ("He wants it sorted by tomorrow.", "It arrived broken again.", "They asked for a discount."),
    ("Payment provider key for the shop backend: {secret}",),
)


COACH = Domain(
    "coach",
    "2026-02-02",
    {
        "client": ("Alex Moreno|he", "Nina Kowalski|she", "Sam Oduya|he"),
        "physio": ("Dr Laura Chen|she", "Dr Marcus Hale|he", "Dr Anya Roth|she"),
        "partner": ("Chris Baker|he", "Julia Mendes|she", "Kofi Asante|he"),
        "trainer": ("Ollie Grant|he", "Sara Lind|she", "Tariq Aziz|he"),
    },
    ("training log", "check-in", "nutrition", "recovery"),
    (
        Fact(
            "D",
            (
                ("Long runs are on Sundays at 07:00.", "{client} does the long run every Sunday at 07:00."),
                ("Long runs moved to Saturdays at 08:00.", "Starting this week the long run is on Saturdays, 08:00."),
            ),
            (("long run day", "when is the long run", "long run time"),),
            slot="time",
        ),
        Fact(
            "D",
            (
                (
                    "The target race is the city half marathon on {at:45:dm}.",
                    "Goal race: city half marathon, {at:45:dm}.",
                ),
                (
                    "The target race changed to the lakeside 10k on {at:38:dm}.",
                    "New goal race: lakeside 10k on {at:38:dm}.",
                ),
            ),
            (("target race", "which race are we training for", "goal race date"),),
            slot="date",
        ),
        Fact(
            "D",
            (
                (
                    "Strength sessions are with {trainer} at the Riverside gym.",
                    "{client} does strength work at the Riverside gym with {trainer}.",
                ),
                (
                    "Strength sessions moved to the Oak Lane studio.",
                    "Strength training now happens at the Oak Lane studio.",
                ),
            ),
            (("where is strength training", "gym location", "strength session venue"),),
            slot="place",
        ),
        Fact(
            "D",
            (
                ("Daily protein target is 120 grams.", "{client} aims for 120 g of protein a day."),
                ("Protein target raised to 140 grams a day.", "Daily protein goal is now 140 g."),
            ),
            (("protein target", "how much protein per day", "daily protein goal"),),
            slot="amount",
        ),
        Fact(
            "D",
            (
                (
                    "{client} prefers training in the morning before work.",
                    "Morning sessions before work suit {client} best.",
                ),
                ("{client} now prefers evening sessions after work.", "{client} switched to training in the evenings."),
            ),
            (("preferred training time", "morning or evening sessions", "when does the client like to train"),),
            slot="preference",
        ),
        Fact(
            "D",
            one(
                "No running on two consecutive days, under any circumstances.",
                "Never schedule runs on back-to-back days.",
            ),
            (("back to back runs", "consecutive running days rule", "can I run two days in a row"),),
        ),
        Fact(
            "D",
            one(
                "Weigh-ins happen each Friday morning before breakfast.",
                "Every Friday morning, weigh-in before breakfast.",
            ),
            (("weigh-in day", "when is the weigh in", "weekly weighing"),),
        ),
        Fact(
            "D",
            one("{client} is lactose intolerant.", "{client} cannot have lactose."),
            (("dietary restrictions", "lactose intolerance", "foods to avoid"),),
        ),
        Fact(
            "D",
            one(
                "{physio_S} says to avoid hill sprints until the knee settles.",
                "{physio_S} ruled out hill sprints until the knee is better.",
            ),
            (("hill sprints allowed", "knee advice", "what did the physio say"),),
            heading="Physio visit with {physio}",
        ),
        Fact(
            "D",
            one("Easy runs stay below heart rate 145.", "Keep easy runs under 145 bpm."),
            (("easy run heart rate", "heart rate cap", "zone 2 limit"),),
            slot="amount",
        ),
        Fact(
            "T",
            one("{client_f} ran a 10k time trial on Saturday.", "{client_f} did a 10k time trial on Saturday."),
            (("10k time trial",),),
            weekday=0,
            ask_days=3,
        ),
        Fact(
            "T",
            one("Massage booked next Thursday at 18:00.", "Sports massage next Thursday, 18:00."),
            (("massage appointment", "when is the massage"),),
            ask_days=3,
        ),
        Fact(
            "T",
            one("Legs feel heavy today.", "Slept badly, legs sore this morning."),
            (("how do the legs feel",),),
            ask_days=2,
        ),
        Fact(
            "T",
            one("Blood test on {in:2:us} at 07:30, fasting.", "Fasting blood test {in:2:us}, 07:30."),
            (("blood test", "when is the blood test"),),
            ask_days=3,
        ),
    ),
    ("Great session today!", "is it going to rain tomorrow?", "Feeling good", "thanks coach"),
    ("It hurt a bit on the way back.", "She said it looked fine.", "That helped a lot."),
    ("Watch sync app token: {secret}",),
)

DOMAINS: dict[str, Domain] = {d.name: d for d in (TEAM, TEACHER, HOUSEHOLD, SHOP, COACH)}
#: The rules were tuned on these two; the others are held out for the figures in docs/DREAMING.md.
TUNING = ("team", "teacher")
HELD_OUT = ("household", "shop", "coach")
