"""A second, smaller labelled case (held out: written after the rules, never tuned on): two weeks of
a customer-support team assistant's logs, with other people, other phrasing and a different secret.
Labels as in team_month.py.
"""

from __future__ import annotations

DAYS: dict[str, str] = {
    "2026-05-04": """
H | # 2026-05-04
H |
H | ## 08:45 huddle
C | - Hi team 👋 hope everyone had a restful weekend
D | - Ana Ruiz is the escalation contact for enterprise tickets.
D | - Refunds above €500 need approval from Lucas. {refund-approver:1}
T | - Zendesk is slow today, tickets take a minute to load.
H |
H | ## 13:00 notes
D | - P1 tickets must get a first human reply within 1 hour, around the clock.
S | - Stripe restricted key for the refund script: rk_live_51Hq2kLmNoPqRsTuVwXyZ0123456789abcDEF
""",
    "2026-05-05": """
H | # 2026-05-05
H |
H | ## 09:00 huddle
D | - Support hours are 08:00 to 18:00 CET on weekdays. {support-hours:1}
C | - lol the printer is jammed again
T | - Macro cleanup planned for Friday.
H |
H | ## 14:30 call with Mei
D | - She prefers Loom videos over long written handovers.
""",
    "2026-05-06": """
H | # 2026-05-06
H |
H | ## 10:00 notes
D | - German-speaking customers are routed to Jonas, French-speaking ones to Claire.
N | - It broke again after lunch.
C | - Can someone cover my queue for ten minutes?
D | - Chargebacks are handled by finance, never by support; forward them to finance@ with the ticket id.
""",
    "2026-05-07": """
H | # 2026-05-07
H |
H | ## 09:00 huddle
T | - Lucas is out until Monday, Mei approves refunds meanwhile.
D | - The team decided to close tickets automatically after 7 days without a customer reply.
C | - Amazing job on the CSAT numbers, folks!
""",
    "2026-05-08": """
H | # 2026-05-08
H |
H | ## 16:00 wrap-up
T | - Macro cleanup done, 14 macros archived.
N | - They said they would get back to us.
C | - Have a lovely weekend!
""",
    "2026-05-11": """
H | # 2026-05-11
H |
H | ## 09:00 huddle
D | - From now on refunds above €500 are approved by Mei; Lucas moved to the billing team. {refund-approver:2}
T | - Onboarding call with the new Acme account tomorrow at 11:00.
""",
    "2026-05-12": """
H | # 2026-05-12
H |
H | ## 11:00 notes
D | - Support hours are extended to 20:00 CET on weekdays starting next Monday. {support-hours:2}
T | - Status page shows a partial outage for EU customers.
C | - Thanks Jonas!!
""",
    "2026-05-13": """
H | # 2026-05-13
H |
H | ## 10:00 notes
D | - Enterprise tickets tagged #vip go straight to Ana Ruiz's queue.
N | - This needs a proper fix.
""",
    "2026-05-14": """
H | # 2026-05-14
H |
H | ## 09:00 huddle
T | - Quarterly review with leadership scheduled for 2026-05-14 at 15:00.
D | - Claire maintains the French help-center articles.
""",
    "2026-05-15": """
H | # 2026-05-15
H |
H | ## 16:00 wrap-up
C | - Great week everyone, thanks for the patience with the outage!
""",
}

QUERIES: dict[str, list[str]] = {
    "2026-05-04": ["enterprise escalation contact", "refund approval limit", "p1 response time"],
    "2026-05-05": ["who approves big refunds", "support opening hours", "stripe key refund script", "p1 sla"],
    "2026-05-06": [
        "how does mei like handovers",
        "german customers routing",
        "escalations for enterprise",
        "chargeback process",
    ],
    "2026-05-07": [
        "support hours",
        "refunds over 500 euro",
        "auto close tickets",
        "mei handover preference",
        "who handles french customers",
    ],
    "2026-05-08": [
        "chargebacks",
        "ticket auto close rule",
        "first reply time for p1",
        "enterprise contact",
        "macro cleanup",
    ],
    "2026-05-11": [
        "who approves refunds now",
        "customer language routing",
        "when does support open",
        "inactive tickets closing",
        "loom or written handover",
    ],
    "2026-05-12": ["support hours extended", "refund approver", "chargeback handling", "vip tickets"],
    "2026-05-13": ["vip enterprise tickets", "refunds above 500", "evening support hours", "ana ruiz queue"],
    "2026-05-14": [
        "french help center articles",
        "support hours",
        "who approves refunds",
        "vip queue",
        "leadership review",
    ],
    "2026-05-15": [
        "who maintains french articles",
        "refund approval",
        "support until 20:00",
        "tickets tagged vip",
        "claire help center",
    ],
}

NIGHTS = ("2026-05-08", "2026-05-15")
SECRET = "rk_live_51Hq2kLmNoPqRsTuVwXyZ0123456789abcDEF"
