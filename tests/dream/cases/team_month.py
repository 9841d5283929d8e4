"""A labelled month of a data team assistant's daily logs, and the searches people made over it.

Written for memgit's dreaming tests (not taken from anywhere). Each log line carries a label:

    D  durable: a reviewer would keep it in long-term memory (decisions, owners, preferences,
       settings, durable numbers), possibly once rewritten to stand alone
    T  transient: an event, a plan whose day passes, a trial run, a status of the moment
    C  chatter: greetings, thanks, praise, questions
    S  secret: a credential that must never leave the log
    N  needs context: cannot be read alone (a pronoun or a "this" nobody can resolve)
    H  structure: headings and blank lines

`{name:N}` after a durable line marks version N of a fact that changes during the month; the
latest version is the one long-term memory must hold. The secret was committed from a clone
without hooks (the test commits it with `--no-verify` past memgit's own pre-commit hook).
"""

from __future__ import annotations

DAYS: dict[str, str] = {
    "2026-03-02": """
H | # 2026-03-02
H |
H | ## 09:15 standup
C | - Morning all, good to be back after the offsite!
D | - Rafael leads the Osprey migration from Redshift to ClickHouse. {osprey-owner:1}
D | - Weekly planning is on Tuesdays at 11:00 in the Fjord room. {planning:1}
T | - Pairing with Rafael on the schema diff until lunch.
H |
H | ## 14:00 notes
D | - The Pipit ingestion service retries a failed batch three times with exponential backoff, then parks it in the dead-letter bucket.
D | - Lumen dashboards refresh every 6 hours from the warehouse. {lumen-refresh:1}
C | - Anyone know where the Q1 OKR doc lives?
""",
    "2026-03-03": """
H | # 2026-03-03
H |
H | ## 10:00 planning
D | - Aiko approved ClickHouse over BigQuery for Osprey: about 40% cheaper at our query volume.
D | - Backfills must run after 20:00 UTC so replica lag stays under five minutes.
T | - Osprey dry run on a 5% sample took 37 minutes.
C | - Thanks Ines for the quick turnaround on the funnel numbers!
H |
H | ## 16:30 1:1 with Ines
D | - She wants dashboard requests as written specs in Notion, not as meetings.
N | - It kept timing out after the upgrade, so we rolled back.
""",
    "2026-03-04": """
H | # 2026-03-04
H |
H | ## 09:15 standup
T | - Lumen staging is down since this morning; Bjorn is looking at it.
D | - The Osprey ClickHouse cluster runs in eu-west-1 with three shards of two replicas each.
T | - Reminder: Osprey load test tomorrow at 15:00 on staging.
S | - Staging ClickHouse admin password is tern-granite-77 until Sven moves it to Vault.
H |
H | ## 15:00 security
D | - Sven requires service account keys to be rotated every 90 days.
C | - Great catch on the leaked log line, Sven!
""",
    "2026-03-05": """
H | # 2026-03-05
H |
H | ## 11:00 load test
T | - Load test running now, 2k queries per second so far.
D | - Bjorn set the ClickHouse disk alert at 80% usage and the page at 90%.
N | - This is the third time it happened this quarter.
H |
H | ## 17:00 wrap-up
C | - Nice work everyone, that was smooth.
D | - Chidi wants every customer-facing metric change announced in #data-announce two days ahead.
""",
    "2026-03-06": """
H | # 2026-03-06
H |
H | ## 10:00 Osprey sync
D | - Decision: the Osprey cutover is blue-green; Redshift stays read-only for two weeks after the switch.
T | - Cutover rehearsal planned for Thursday next week.
N | - They agreed to revisit it in April.
C | - Happy Friday!
""",
    "2026-03-09": """
H | # 2026-03-09
H |
H | ## 09:15 standup
D | - The finance revenue dashboard reads from the lumen_finance schema; never drop it.
T | - Waiting on Sven's sign-off for the new Pipit service account.
C | - Did anyone see the email from facilities?
H |
H | ## 13:00 notes
D | - Pipit writes one Parquet file per partition per hour to the landing bucket.
""",
    "2026-03-10": """
H | # 2026-03-10
H |
H | ## 11:00 planning
D | - Planning moves to Wednesdays at 10:30 from next week, so it no longer clashes with the exec review. {planning:2}
T | - Security review with Sven scheduled for 2026-03-12 at 10:00.
C | - Welcome back, Chidi!
""",
    "2026-03-11": """
H | # 2026-03-11
H |
H | ## 09:15 standup
T | - Debugging the Pipit memory leak with Bjorn this afternoon.
D | - Ines owns the Lumen churn dashboard; questions about it go to her first.
H |
H | ## 15:00 notes
D | - Query results in Lumen are cached for ten minutes per user.
N | - He said that was fine for now.
""",
    "2026-03-12": """
H | # 2026-03-12
H |
H | ## 10:00 security review
D | - Sven decided all warehouse access goes through SSO groups; no more shared logins.
T | - Review ran long, we'll finish the checklist tomorrow.
C | - Thanks for the coffee, Aiko!
""",
    "2026-03-13": """
H | # 2026-03-13
H |
H | ## 10:00 Osprey rehearsal
T | - The Osprey cutover rehearsal completed on Thursday: 4 hours end to end, no data loss.
T | - Rehearsal dashboards are still warming up.
C | - What a week, have a good weekend all!
""",
    "2026-03-16": """
H | # 2026-03-16
H |
H | ## 09:15 standup
D | - Marta joined today as a data engineer; she sits with the platform team.
D | - Marta takes over the Osprey migration from Rafael, who moves to Pipit ingestion. {osprey-owner:2}
C | - Welcome Marta!
H |
H | ## 14:00 onboarding
T | - Onboarding session for Marta at 16:00 today.
""",
    "2026-03-17": """
H | # 2026-03-17
H |
H | ## 10:00 notes
D | - Lumen refresh is now hourly since the ClickHouse switch. {lumen-refresh:2}
T | - Marta is reading the Osprey runbook this week.
N | - It looks better than before.
""",
    "2026-03-18": """
H | # 2026-03-18
H |
H | ## 10:30 planning
D | - Osprey cutover date is fixed for 2026-04-04, a Saturday.
C | - Sounds good to me.
T | - Ines is out sick today.
""",
    "2026-03-19": """
H | # 2026-03-19
H |
H | ## 09:15 standup
D | - Planning goes back to Tuesdays, now at 14:00, starting next week. {planning:3}
T | - Chidi is presenting the roadmap at the all-hands tomorrow.
H |
H | ## 15:30 1:1 with Rafael
D | - He prefers async code reviews over pairing sessions.
""",
    "2026-03-20": """
H | # 2026-03-20
H |
H | ## 11:00 retro
D | - The team agreed to keep the ClickHouse disk alert at 80% after the load test showed headroom.
C | - Great retro, thanks everyone!
N | - That should not happen again.
""",
    "2026-03-23": """
H | # 2026-03-23
H |
H | ## 09:15 standup
T | - Pipit deploy is in progress, ETA 30 minutes.
D | - Backfill jobs are owned by the Pipit team and run from the backfill-runner repo.
""",
    "2026-03-24": """
H | # 2026-03-24
H |
H | ## 14:00 planning
D | - Aiko set the Q2 goal: Lumen p95 load time under two seconds.
C | - Anyone up for lunch?
""",
    "2026-03-25": """
H | # 2026-03-25
H |
H | ## 10:00 notes
D | - Chidi decided that metric definitions live in the dbt repo, not in dashboard tooltips.
T | - Marta pairing with Bjorn on the replica failover drill today.
""",
    "2026-03-26": """
H | # 2026-03-26
H |
H | ## 09:15 standup
D | - Redshift will be switched off on 2026-04-18, two weeks after the Osprey cutover.
N | - They will confirm by Friday.
""",
    "2026-03-27": """
H | # 2026-03-27
H |
H | ## 16:00 wrap-up
C | - Thanks all, see you Monday!
T | - Friday demo went well, recording is in the team drive.
""",
}

#: Who asked what, and when (one list a day; each query is searched as `memgit search --batch`).
QUERIES: dict[str, list[str]] = {
    "2026-03-02": ["who leads the osprey migration", "pipit retry policy", "how often do lumen dashboards refresh"],
    "2026-03-03": [
        "weekly planning meeting time",
        "why clickhouse instead of bigquery",
        "what happens to failed pipit batches",
        "osprey dry run duration",
    ],
    "2026-03-04": [
        "osprey owner",
        "clickhouse cluster layout",
        "staging clickhouse password",
        "when can backfills run",
        "how does ines want dashboard requests",
    ],
    "2026-03-05": [
        "planning meeting room",
        "service account key rotation",
        "lumen refresh schedule",
        "clickhouse disk alert threshold",
        "dead letter bucket for ingestion",
        "osprey load test",
    ],
    "2026-03-06": [
        "osprey migration lead",
        "clickhouse cost decision",
        "how many shards in clickhouse",
        "backfill time window",
        "dashboard request process ines",
        "staging clickhouse admin login",
        "when is planning",
    ],
    "2026-03-09": [
        "metric change announcement",
        "osprey cutover plan",
        "lumen_finance schema",
        "key rotation policy",
        "clickhouse region",
    ],
    "2026-03-10": [
        "when is planning",
        "disk usage paging",
        "redshift read only after cutover",
        "how long until dashboards refresh",
        "announce dashboard changes",
    ],
    "2026-03-11": [
        "planning meeting time",
        "who owns the churn dashboard",
        "pipit output files",
        "finance dashboard schema",
        "security review date",
    ],
    "2026-03-12": [
        "lumen cache duration",
        "warehouse access sso",
        "data-announce notice period",
        "blue green cutover",
        "planning day",
    ],
    "2026-03-13": [
        "osprey rehearsal result",
        "churn dashboard owner",
        "shared logins warehouse",
        "lumen query cache",
        "parquet files landing bucket",
        "when is planning",
    ],
    "2026-03-16": [
        "who owns osprey now",
        "how often lumen refresh",
        "planning meeting time",
        "sso groups for warehouse",
        "new data engineer",
    ],
    "2026-03-17": [
        "osprey owner",
        "lumen refresh interval",
        "rehearsal outcome",
        "churn dashboard questions",
        "who took over osprey",
    ],
    "2026-03-18": [
        "osprey cutover date",
        "who leads osprey",
        "lumen dashboards refresh",
        "weekly planning",
        "osprey handover",
    ],
    "2026-03-19": [
        "planning meeting time",
        "cutover date for osprey",
        "lumen cache",
        "what is marta working on",
        "is lumen refreshed hourly now",
    ],
    "2026-03-20": [
        "how does rafael like code reviews",
        "disk alert decision",
        "osprey migration owner",
        "when is the planning meeting",
    ],
    "2026-03-23": [
        "who runs backfills",
        "rafael review preference",
        "dashboard refresh frequency",
        "osprey cutover",
        "osprey owner after rafael",
    ],
    "2026-03-24": [
        "lumen load time goal",
        "planning moved",
        "backfill runner repo",
        "who is marta",
        "marta osprey migration",
    ],
    "2026-03-25": [
        "where do metric definitions live",
        "q2 lumen goal",
        "async reviews rafael",
        "redshift shutdown",
        "how fresh is lumen data",
    ],
    "2026-03-26": [
        "when is redshift switched off",
        "metric definitions dbt",
        "planning meeting",
        "backfill ownership",
        "does marta lead osprey now",
    ],
    "2026-03-27": [
        "redshift decommission date",
        "lumen performance target",
        "where are metrics defined",
        "osprey owner",
        "planning time",
    ],
}

#: The nights the dream runs (after the day's searches), each branch merged as it is.
NIGHTS = ("2026-03-06", "2026-03-13", "2026-03-20", "2026-03-27")
SECRET = "tern-granite-77"
