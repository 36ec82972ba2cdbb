//! The subjects of the quality corpus (contract 07 §7.2): each topic's titles, the sentences
//! written about it, the phrase a passing mention uses, distractor sentences that share one word
//! with it, and the queries asked about it with their kind. Known items are single documents
//! planted with an identifier or an exact title.
//!
//! Data only: the generator (`corpus.rs`) decides which documents carry which topic, and
//! `queries.rs` turns these queries into the gold set. Nothing here may depend on what any
//! system returns (contract 07 §7.3: gold is written before any system runs).

/// The kinds of query of contract 07 §7.3, in table order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Kind {
    Canonical,
    Inflection,
    Paraphrase,
    Question,
    Typo,
    Accent,
    Cjk,
    ShortToken,
    KnownItem,
    MultiScope,
}

impl Kind {
    pub(crate) const ALL: [Kind; 10] = [
        Kind::Canonical,
        Kind::Inflection,
        Kind::Paraphrase,
        Kind::Question,
        Kind::Typo,
        Kind::Accent,
        Kind::Cjk,
        Kind::ShortToken,
        Kind::KnownItem,
        Kind::MultiScope,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Canonical => "canonical",
            Kind::Inflection => "inflection",
            Kind::Paraphrase => "paraphrase",
            Kind::Question => "question",
            Kind::Typo => "typo",
            Kind::Accent => "accent",
            Kind::Cjk => "cjk",
            Kind::ShortToken => "short-token",
            Kind::KnownItem => "known-item",
            Kind::MultiScope => "multi-scope",
        }
    }
}

/// One subject of the corpus.
pub(crate) struct Topic {
    /// The main note's file stem.
    pub(crate) slug: &'static str,
    /// The vault folder of its notes.
    pub(crate) area: &'static str,
    /// The main note's title (the canonical name).
    pub(crate) title: &'static str,
    /// The second note's file stem and title (a paraphrase of the subject).
    pub(crate) alt_slug: &'static str,
    pub(crate) alt_title: &'static str,
    /// Sentences about the subject: the notes, decision, memory entries and daily bullets are
    /// written from them.
    pub(crate) facts: &'static [&'static str],
    /// How another note names the subject in passing.
    pub(crate) mention: &'static str,
    /// Irrelevant sentences that share one word with the subject.
    pub(crate) distractors: &'static [&'static str],
    /// The queries about this subject.
    pub(crate) queries: &'static [(Kind, &'static str)],
}

/// A single document found by an identifier or its exact title.
pub(crate) struct Item {
    /// Where it is planted: a topic's main note, its alternative note, a memory entry, or a
    /// note of its own.
    pub(crate) host: Host,
    /// The sentence that carries the identifier.
    pub(crate) sentence: &'static str,
    pub(crate) query: &'static str,
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Host {
    MainNote(&'static str),
    AltNote(&'static str),
    /// A memory entry of its own (type, summary = the sentence).
    Memory(&'static str),
    /// A vault note of its own: folder and title.
    Note(&'static str, &'static str),
}

use Kind::{
    Accent, Canonical, Cjk, Inflection, KnownItem, MultiScope, Paraphrase, Question, ShortToken,
    Typo,
};

pub(crate) const TOPICS: &[Topic] = &[
    Topic {
        slug: "api-key-rotation",
        area: "engineering",
        title: "API key rotation",
        alt_slug: "rotating-service-credentials",
        alt_title: "Rotating service credentials",
        facts: &[
            "We rotate the API keys for the billing service every ninety days.",
            "Rotating credentials is scripted; the old key stays valid for twenty-four hours so deploys can catch up.",
            "After each rotation the payments webhook secret has to be re-signed and stored again.",
            "Renewing the keys by hand caused the outage in March, so the rotation now runs from the release checklist.",
            "Key rotations are logged in the ops channel with the new key's fingerprint, never the key itself.",
        ],
        mention: "the API key rotation",
        distractors: &[
            "The crop rotation plan moves the beans to the bed where the tomatoes were.",
            "I finally found the key to the bike shed under the doormat.",
        ],
        queries: &[
            (Canonical, "api key rotation"),
            (Inflection, "rotating api keys"),
            (Paraphrase, "renew service credentials"),
            (Question, "how do I rotate the api keys"),
            (Typo, "api key rotaton"),
            (MultiScope, "api key rotation decision and log"),
        ],
    },
    Topic {
        slug: "pod-eviction",
        area: "infrastructure",
        title: "Notes on pod eviction",
        alt_slug: "kubernetes-memory-pressure",
        alt_title: "Why Kubernetes evicts pods under memory pressure",
        facts: &[
            "Pods get evicted when the node runs short of memory and the kubelet reclaims resources.",
            "Setting memory requests equal to limits keeps the critical pods in the Guaranteed class, so they are evicted last.",
            "An eviction storm on the batch nodes last quarter came from a log volume filling the disk.",
            "Evicted pods are rescheduled elsewhere, but their local scratch data is lost.",
            "The alert fires when more than five pods are evicted within ten minutes on one node.",
        ],
        mention: "pod eviction",
        distractors: &[
            "The tenant's eviction notice was withdrawn after the landlord got paid.",
            "A pod of dolphins followed the ferry for a while.",
        ],
        queries: &[
            (Canonical, "pod eviction"),
            (Inflection, "evicted pods"),
            (Question, "why are my pods getting evicted"),
            (Typo, "pod evicton"),
            (Paraphrase, "kubelet reclaims node memory"),
        ],
    },
    Topic {
        slug: "postgres-16-upgrade",
        area: "engineering",
        title: "Postgres 16 upgrade plan",
        alt_slug: "database-cluster-move",
        alt_title: "Moving the main database to the new cluster",
        facts: &[
            "The upgrade to Postgres 16 runs through logical replication, so the old primary keeps serving writes until cut-over.",
            "Migrating the orders table takes longest because of its two large indexes.",
            "We rehearsed the database migration twice on a restored snapshot.",
            "The cut-over window is Sunday 06:00 UTC with a thirty-minute rollback budget.",
            "Extensions pg_trgm and postgis must be upgraded before the replication slot is created.",
        ],
        mention: "the Postgres upgrade",
        distractors: &[
            "The upgrade to the kitchen lighting cost less than the electrician quoted.",
            "Sunday's plan: market, then a long walk along the canal.",
        ],
        queries: &[
            (Canonical, "postgres 16 upgrade"),
            (Inflection, "migrating the database"),
            (Paraphrase, "database cut-over rehearsal"),
            (Question, "when is the postgres cut-over window"),
            (MultiScope, "postgres upgrade decision"),
        ],
    },
    Topic {
        slug: "pricing-page-ab-test",
        area: "product",
        title: "AB test of the pricing page",
        alt_slug: "pricing-experiment-results",
        alt_title: "Pricing page experiment results",
        facts: &[
            "The A/B test compared the annual toggle on by default against off by default.",
            "Variant B raised annual sign-ups by 11 percent with no drop in trial starts.",
            "The AB test ran for three weeks to cover two billing cycles.",
            "We stopped the experiment early on the mobile layout because the toggle overlapped the price.",
            "Next AB tests: the comparison table and the testimonial block.",
        ],
        mention: "the pricing AB test",
        distractors: &[
            "The pricing of the new bikes at the shop went up again.",
            "We test the smoke alarms on the first Monday of each month.",
        ],
        queries: &[
            (Canonical, "ab test pricing page"),
            (ShortToken, "ab test"),
            (Paraphrase, "pricing experiment annual toggle"),
            (Question, "which variant won the pricing experiment"),
        ],
    },
    Topic {
        slug: "flaky-tests-ci",
        area: "engineering",
        title: "Flaky tests in CI",
        alt_slug: "quarantining-unstable-tests",
        alt_title: "Quarantining unstable integration tests",
        facts: &[
            "Flaky tests in CI are retried once, then quarantined with an owner and a ticket.",
            "Most of the flakiness came from tests that share one temporary directory.",
            "The quarantine list lives in ci/quarantine.txt and is reviewed every Friday.",
            "A test that fails intermittently three times in a week gets quarantined automatically.",
            "The CI pipeline now runs the quarantined tests in a separate, non-blocking job.",
        ],
        mention: "the flaky CI tests",
        distractors: &[
            "The flaky pastry from the bakery on Via Roma is worth the queue.",
            "The pipeline under the sink finally stopped dripping.",
        ],
        queries: &[
            (Canonical, "flaky tests ci"),
            (ShortToken, "ci quarantine"),
            (Inflection, "quarantined test"),
            (Question, "what do we do with a flaky test"),
        ],
    },
    Topic {
        slug: "jurgen-muller",
        area: "people",
        title: "Jürgen Müller",
        alt_slug: "muller-feinmechanik-account",
        alt_title: "Müller Feinmechanik account",
        facts: &[
            "Jürgen Müller runs procurement at Müller Feinmechanik in Stuttgart.",
            "Jürgen prefers a call on Tuesday mornings and a written summary afterwards.",
            "He signed the framework agreement for the sensor housings in September.",
            "Herr Müller asked for invoices in German with the VAT number on the first page.",
            "His assistant, Käthe, handles scheduling and travel for the Feinmechanik team.",
        ],
        mention: "Jürgen Müller",
        distractors: &[
            "The Stuttgart trip got moved because of the rail strike.",
            "Tuesday mornings are for deep work, no meetings.",
        ],
        queries: &[
            (Accent, "jurgen muller"),
            (Canonical, "Jürgen Müller"),
            (Accent, "muller feinmechanik"),
            (Question, "how does jurgen prefer to be contacted"),
        ],
    },
    Topic {
        slug: "creme-brulee",
        area: "kitchen",
        title: "Crème brûlée",
        alt_slug: "dinner-party-custard",
        alt_title: "Custard for the dinner party",
        facts: &[
            "The crème brûlée needs six yolks, cream, sugar and a split vanilla pod.",
            "Bake the custards in a water bath at 150 degrees until they just wobble.",
            "Chill them overnight; caramelise the sugar with the torch only before serving.",
            "Last time the crème set too firm because the oven ran hot.",
            "Brûlée tops stay crisp for about twenty minutes after the torch.",
        ],
        mention: "the crème brûlée",
        distractors: &[
            "The water bath for the sous-vide steak needs a lid.",
            "Sugar prices at the wholesaler went up again.",
        ],
        queries: &[
            (Accent, "creme brulee"),
            (Canonical, "crème brûlée recipe"),
            (Paraphrase, "custard caramelise sugar torch"),
        ],
    },
    Topic {
        slug: "tokyo-office-move",
        area: "operations",
        title: "東京オフィス移転",
        alt_slug: "tokyo-office-relocation",
        alt_title: "Tokyo office relocation",
        facts: &[
            "東京オフィス移転は三月末に完了する予定です。",
            "The Tokyo office relocation moves the team from Shibuya to Otemachi.",
            "新しいオフィスの賃貸契約は二月に署名しました。",
            "Movers need the floor plan and the list of desks two weeks before the relocation.",
            "移転後もネットワーク機器は旧オフィスに一週間残します。",
        ],
        mention: "the Tokyo office move",
        distractors: &[
            "The Tokyo trip photos are in the shared album.",
            "新しいカメラの説明書を読んだ。",
        ],
        queries: &[
            (Cjk, "オフィス移転"),
            (Cjk, "東京オフィス"),
            (Canonical, "tokyo office relocation"),
            (Paraphrase, "moving the Shibuya team to Otemachi"),
        ],
    },
    Topic {
        slug: "spring-festival-promotion",
        area: "marketing",
        title: "春节促销活动",
        alt_slug: "spring-festival-china",
        alt_title: "Spring Festival promotion in China",
        facts: &[
            "春节促销活动从一月二十日开始，持续两周。",
            "The Spring Festival promotion offers a red-envelope discount on the annual plan.",
            "我们和微信合作投放广告。",
            "Creative for the promotion needs approval from the Shanghai team by January 5.",
            "去年的促销带来了百分之三十的新用户。",
        ],
        mention: "the Spring Festival promotion",
        distractors: &[
            "The spring cleaning list is stuck on the fridge.",
            "The festival tickets for July are in my inbox.",
        ],
        queries: &[
            (Cjk, "春节促销"),
            (Cjk, "微信广告"),
            (Canonical, "spring festival promotion"),
        ],
    },
    Topic {
        slug: "fatturazione-elettronica",
        area: "finance",
        title: "Fatturazione elettronica",
        alt_slug: "italian-clients-sdi",
        alt_title: "Invoicing Italian clients through SDI",
        facts: &[
            "Le fatture elettroniche vanno inviate tramite lo SDI entro dodici giorni.",
            "Per i clienti italiani emettiamo la fattura in formato XML.",
            "Abbiamo emesso tre fatture a novembre per Ferro Print.",
            "The accountant checks the electronic invoices every month before the VAT filing.",
            "Se lo SDI scarta una fattura, correggiamo e rinviamo entro cinque giorni.",
        ],
        mention: "the electronic invoicing",
        distractors: &[
            "The invoice template for the UK clients still has the old address.",
            "Five days of rain in a row and the garden is a swamp.",
        ],
        queries: &[
            (Inflection, "fattura elettronica"),
            (Canonical, "fatturazione elettronica"),
            (Paraphrase, "invoices for italian clients xml"),
            (Question, "come inviare le fatture elettroniche"),
        ],
    },
    Topic {
        slug: "kitchen-remodel",
        area: "home",
        title: "Kitchen remodel",
        alt_slug: "kitchen-contractor-budget",
        alt_title: "Renovating the kitchen: contractor and budget",
        facts: &[
            "The kitchen remodel budget is 18,000 euros including the new worktop.",
            "Remodeling starts after the plumber moves the sink to the window wall.",
            "We chose the oak cabinets; the contractor needs six weeks to build them.",
            "Renovating the kitchen means eating from the camping stove for a month.",
            "The electrician adds two circuits for the oven and the induction hob.",
        ],
        mention: "the kitchen remodel",
        distractors: &[
            "The kitchen scale needs a new battery.",
            "The budget for the holiday is still open.",
        ],
        queries: &[
            (Canonical, "kitchen remodel"),
            (Inflection, "remodeling the kitchen"),
            (Question, "how much is the kitchen remodel budget"),
            (Paraphrase, "renovation contractor oak cabinets"),
        ],
    },
    Topic {
        slug: "onboarding-checklist",
        area: "people",
        title: "New hire onboarding checklist",
        alt_slug: "first-week-new-engineers",
        alt_title: "First week for new engineers",
        facts: &[
            "Every new hire gets a laptop, an access badge and a buddy on day one.",
            "Onboarding a new engineer includes a first small pull request by Thursday.",
            "Accounts for the wiki, the tracker and the chat are requested a week before the start date.",
            "The buddy checks in daily during the first week and weekly for the first month.",
            "New hires shadow the on-call engineer in their third week.",
        ],
        mention: "the onboarding checklist",
        distractors: &[
            "The new hire at the bakery makes better croissants.",
            "The checklist for the camping trip is in the car.",
        ],
        queries: &[
            (Canonical, "onboarding checklist"),
            (Inflection, "onboarded engineers"),
            (Question, "what does a new hire get on day one"),
            (Paraphrase, "first week buddy laptop badge"),
        ],
    },
    Topic {
        slug: "checkout-timeouts-postmortem",
        area: "incidents",
        title: "Postmortem: checkout timeouts",
        alt_slug: "tax-service-retry-loop",
        alt_title: "The tax service retry loop",
        facts: &[
            "Checkout requests timed out for 38 minutes on a Friday evening.",
            "The root cause was a connection pool exhausted by a retry loop in the tax service.",
            "We added a circuit breaker and capped retries at two.",
            "The checkout outage hit about 1,200 orders; affected customers were refunded the shipping fee.",
            "The timeline and the paging gaps were reviewed in the follow-up meeting.",
        ],
        mention: "the checkout timeout incident",
        distractors: &[
            "The pool at the sports centre is closed for repairs.",
            "Friday evening is pizza night at my sister's.",
        ],
        queries: &[
            (Canonical, "checkout timeouts postmortem"),
            (Paraphrase, "connection pool exhausted retry loop"),
            (Question, "what caused the checkout outage"),
        ],
    },
    Topic {
        slug: "backup-restore-drill",
        area: "infrastructure",
        title: "Backup restore drill",
        alt_slug: "restoring-nightly-snapshots",
        alt_title: "Restoring the nightly snapshots",
        facts: &[
            "Once a quarter we restore last night's backup into a scratch environment and time it.",
            "The last restore drill took 47 minutes for the full database.",
            "Backups are encrypted and copied to a second region every night.",
            "Restoring a single table from the snapshot is documented step by step.",
            "The drill failed once because the restore role had lost its permissions.",
        ],
        mention: "the restore drill",
        distractors: &[
            "We restored the old oak table from the flea market.",
            "The nightly train to Vienna was fully booked.",
        ],
        queries: &[
            (Canonical, "backup restore drill"),
            (Inflection, "restoring backups"),
            (Question, "how long does a database restore take"),
        ],
    },
    Topic {
        slug: "q3-okr-planning",
        area: "product",
        title: "Q3 OKR planning",
        alt_slug: "third-quarter-objectives",
        alt_title: "Objectives and key results for the third quarter",
        facts: &[
            "The Q3 OKRs focus on activation, retention and fewer support tickets.",
            "Each objective gets at most three key results with a baseline and a target.",
            "Key result: cut the median time to first value from four days to two.",
            "OKR drafts are due two weeks before the quarter starts.",
            "We grade the OKRs at the end of the quarter on a scale from 0 to 1.",
        ],
        mention: "the Q3 OKRs",
        distractors: &[
            "The third quarter of the match was the best.",
            "Retention of water in the garden beds is poor.",
        ],
        queries: &[
            (ShortToken, "q3 okr"),
            (Canonical, "okr planning"),
            (Paraphrase, "objectives key results third quarter"),
        ],
    },
    Topic {
        slug: "s3-lifecycle-rules",
        area: "infrastructure",
        title: "S3 lifecycle rules",
        alt_slug: "expiring-old-objects",
        alt_title: "Expiring old objects in the storage buckets",
        facts: &[
            "S3 lifecycle rules move logs to Glacier after 30 days and delete them after a year.",
            "The uploads bucket keeps noncurrent versions for seven days only.",
            "Expiring old objects cut the storage bill by a third.",
            "Lifecycle changes go through the Terraform module, never the console.",
            "A rule with the wrong prefix once deleted the thumbnails, so every new rule is reviewed.",
        ],
        mention: "the S3 lifecycle rules",
        distractors: &[
            "The lifecycle of the monarch butterfly was the kids' school project.",
            "The ice bucket for the party is in the garage.",
        ],
        queries: &[
            (ShortToken, "s3 lifecycle"),
            (Canonical, "s3 lifecycle rules"),
            (Question, "when do old logs get deleted"),
            (Inflection, "expired objects"),
        ],
    },
    Topic {
        slug: "ux-audit-signup",
        area: "design",
        title: "UX audit of the signup flow",
        alt_slug: "registration-usability-review",
        alt_title: "Usability review of registration",
        facts: &[
            "The UX audit found eleven issues in the signup flow, three of them blocking.",
            "Users missed the password rules until after submitting the form.",
            "The usability review recommends one field per screen on mobile.",
            "Error messages should say how to fix the problem, not only what went wrong.",
            "We audited the flow with five participants recruited from the waitlist.",
        ],
        mention: "the UX audit",
        distractors: &[
            "The audit of the expense reports is due on Friday.",
            "The flow of the river was high after the storm.",
        ],
        queries: &[
            (ShortToken, "ux audit"),
            (Canonical, "ux audit signup flow"),
            (Paraphrase, "usability review registration form"),
            (Inflection, "audits of the signup"),
        ],
    },
    Topic {
        slug: "sao-paulo-offsite",
        area: "operations",
        title: "Team offsite in São Paulo",
        alt_slug: "brazil-team-week",
        alt_title: "Planning the Brazil team week",
        facts: &[
            "The offsite in São Paulo is planned for the second week of May.",
            "We booked the hotel near Avenida Paulista for twelve people.",
            "Visas are not needed for most of the team, but passports must be valid six months.",
            "The agenda mixes two planning days with one day of customer visits.",
            "Flights to São Paulo are cheapest through Lisbon.",
        ],
        mention: "the São Paulo offsite",
        distractors: &[
            "The hotel in Lisbon lost our booking last year.",
            "Planning the garden takes longer than planting it.",
        ],
        queries: &[
            (Accent, "sao paulo offsite"),
            (Canonical, "team offsite São Paulo"),
            (Question, "which hotel did we book for the offsite"),
        ],
    },
    Topic {
        slug: "gdpr-deletion-requests",
        area: "legal",
        title: "GDPR deletion requests",
        alt_slug: "right-to-erasure",
        alt_title: "Handling right-to-erasure requests",
        facts: &[
            "GDPR deletion requests must be answered within thirty days.",
            "Support logs the request, and engineering runs the erase script against every store of user data.",
            "Erasure covers backups by expiry: deleted data ages out of the snapshots within 35 days.",
            "We keep the invoice records, which the law requires, and say so in the reply.",
            "Deleting a user also removes them from the mailing list provider.",
        ],
        mention: "the GDPR deletion process",
        distractors: &[
            "The deletion of the old photos freed half the phone.",
            "The request for a bigger desk was approved.",
        ],
        queries: &[
            (Canonical, "gdpr deletion requests"),
            (Paraphrase, "right to erasure user data"),
            (Question, "how fast must we answer a deletion request"),
            (Inflection, "deleting users"),
        ],
    },
    Topic {
        slug: "on-call-handbook",
        area: "engineering",
        title: "On-call handbook",
        alt_slug: "paging-escalation-rules",
        alt_title: "Paging and escalation rules",
        facts: &[
            "The on-call engineer acknowledges a page within five minutes during the rotation week.",
            "Escalate to the secondary after fifteen minutes without progress.",
            "Every page gets a short note in the incident channel, even a false alarm.",
            "On-call weeks start on Monday at 10:00 and hand over in a fifteen-minute call.",
            "Paging rules are reviewed when an alert fires more than twice a week without action.",
        ],
        mention: "the on-call handbook",
        distractors: &[
            "The handbook for the new dishwasher is in the drawer.",
            "The call with the bank took forty minutes.",
        ],
        queries: &[
            (Canonical, "on-call handbook"),
            (Paraphrase, "paging escalation secondary"),
            (Question, "how quickly do I acknowledge a page"),
        ],
    },
    Topic {
        slug: "dark-mode-tokens",
        area: "design",
        title: "Dark mode colour tokens",
        alt_slug: "theming-dark-backgrounds",
        alt_title: "Theming the app for dark backgrounds",
        facts: &[
            "Dark mode uses its own set of colour tokens instead of inverting the light theme.",
            "Text on dark surfaces must keep a contrast ratio of at least 4.5 to 1.",
            "The theming switch follows the system setting unless the user picks one.",
            "Shadows do not work on dark backgrounds, so elevation is shown with lighter surfaces.",
            "Charts needed a separate dark palette; the old greens were unreadable.",
        ],
        mention: "dark mode",
        distractors: &[
            "The dark chocolate from the market was too bitter.",
            "The colour of the new sofa clashes with the rug.",
        ],
        queries: &[
            (Canonical, "dark mode colour tokens"),
            (Inflection, "theme for dark backgrounds"),
            (Typo, "dark mdoe tokens"),
            (Question, "what contrast ratio does dark mode need"),
        ],
    },
    Topic {
        slug: "acme-hosting-contract",
        area: "legal",
        title: "Renewing the Acme hosting contract",
        alt_slug: "hosting-vendor-negotiation",
        alt_title: "Hosting vendor negotiation",
        facts: &[
            "The hosting contract with Acme renews on 1 March unless we give notice by January.",
            "Acme offered a 12 percent discount for a three-year commitment.",
            "Negotiating the renewal, we asked for a cap on egress fees.",
            "The contract's exit clause requires ninety days' notice and help with the data export.",
            "Legal reviewed the renewal terms and flagged the liability limit.",
        ],
        mention: "the Acme contract renewal",
        distractors: &[
            "The gym contract renews automatically, which I forgot again.",
            "Hosting the dinner for ten people was too much for our table.",
        ],
        queries: &[
            (Canonical, "acme hosting contract renewal"),
            (Paraphrase, "negotiate hosting vendor discount"),
            (Inflection, "renewed hosting contracts"),
            (MultiScope, "acme contract decision"),
        ],
    },
    Topic {
        slug: "sourdough-starter",
        area: "kitchen",
        title: "Sourdough starter",
        alt_slug: "feeding-the-levain",
        alt_title: "Feeding the levain",
        facts: &[
            "The sourdough starter gets fed twice a day at room temperature: equal weights of flour and water.",
            "The levain peaks about five hours after feeding.",
            "Rye flour wakes up a sluggish starter within a day.",
            "Before a holiday the starter goes into the fridge, fed and sealed.",
            "Bake when the starter doubles and smells sour but not of acetone.",
        ],
        mention: "the sourdough starter",
        distractors: &[
            "The starter at the restaurant was better than the main course.",
            "The flour mill by the river is open on Saturdays.",
        ],
        queries: &[
            (Canonical, "sourdough starter"),
            (Inflection, "feeding starters"),
            (Question, "how often do I feed the sourdough starter"),
            (Typo, "sourdugh starter"),
        ],
    },
    Topic {
        slug: "mobile-release-train",
        area: "product",
        title: "Mobile release train",
        alt_slug: "shipping-ios-android",
        alt_title: "Shipping the iOS and Android apps every two weeks",
        facts: &[
            "The mobile release train leaves every second Wednesday; features that miss it wait for the next one.",
            "Release candidates go to TestFlight and the internal Play track two days before.",
            "A hotfix skips the train only for crashes or payment bugs.",
            "Store review usually takes a day for iOS and a few hours for Android.",
            "Phased rollout of each release starts at ten percent and reaches everyone in a week.",
        ],
        mention: "the mobile release train",
        distractors: &[
            "The train to the coast was delayed by an hour.",
            "The release of the new album is in June.",
        ],
        queries: &[
            (Canonical, "mobile release train"),
            (Paraphrase, "ship ios android apps every two weeks"),
            (Inflection, "releasing mobile apps"),
            (Question, "when does the next app release ship"),
        ],
    },
    Topic {
        slug: "travel-expense-policy",
        area: "finance",
        title: "Travel expense policy",
        alt_slug: "business-trip-reimbursement",
        alt_title: "What we reimburse for business trips",
        facts: &[
            "Travel expenses are reimbursed within two weeks when the receipt is uploaded.",
            "Hotels up to 180 euros a night need no approval; above that the manager approves.",
            "Trains are preferred over flights for business trips under five hours.",
            "Meals are covered up to 50 euros a day, alcohol excluded.",
            "Reimbursements for conference tickets go through the learning budget instead.",
        ],
        mention: "the expense policy",
        distractors: &[
            "The policy on pets at the rental flat changed.",
            "The travel guide to Sicily was a gift.",
        ],
        queries: &[
            (Canonical, "travel expense policy"),
            (Paraphrase, "reimburse business trip hotel"),
            (Question, "how much can I spend on a hotel"),
            (Inflection, "reimbursing expenses"),
        ],
    },
    Topic {
        slug: "search-latency-budget",
        area: "engineering",
        title: "Search latency budget",
        alt_slug: "search-under-200ms",
        alt_title: "Keeping search responses under 200 ms",
        facts: &[
            "The search latency budget is 200 ms at p95 for the public API.",
            "Most of the time goes to the ranking step, not to the index lookup.",
            "Caching the query plan saved 40 ms on the slowest queries.",
            "Latency regressions are caught by the nightly benchmark, which compares p95 with last week's.",
            "Search queries with more than ten terms are cut to keep the budget.",
        ],
        mention: "the search latency budget",
        distractors: &[
            "The search for the lost cat ended happily.",
            "The budget for the school trip was collected in cash.",
        ],
        queries: &[
            (Canonical, "search latency budget"),
            (Paraphrase, "keep responses under 200 ms p95"),
            (Question, "why are search queries slow"),
        ],
    },
    Topic {
        slug: "car-insurance-renewal",
        area: "personal",
        title: "Car insurance renewal",
        alt_slug: "car-insurance-quotes",
        alt_title: "Comparing car insurance quotes",
        facts: &[
            "The car insurance renews on 14 April; the current premium is 620 euros.",
            "Three quotes came in, the cheapest from the online insurer with a 300 euro excess.",
            "Renewing with the same company keeps the no-claims bonus of nine years.",
            "The policy must cover the trailer for the summer trip.",
            "Comparing quotes took an evening; the broker's was not competitive.",
        ],
        mention: "the car insurance renewal",
        distractors: &[
            "The car wash on the corner closed down.",
            "The insurance for the phone screen was useless.",
        ],
        queries: &[
            (Canonical, "car insurance renewal"),
            (Paraphrase, "compare insurance quotes premium"),
            (Inflection, "renewing car insurance"),
        ],
    },
    Topic {
        slug: "webhook-retry-policy",
        area: "engineering",
        title: "Webhook retry policy",
        alt_slug: "redelivering-failed-events",
        alt_title: "Redelivering failed webhook events",
        facts: &[
            "Failed webhooks are retried with exponential backoff for up to 24 hours.",
            "Each delivery carries an idempotency key so receivers can drop duplicates.",
            "After the last retry the event lands in the dead-letter queue for manual redelivery.",
            "Receivers must answer within ten seconds or the delivery counts as failed.",
            "Retrying webhooks in order is not guaranteed; consumers sort by the event timestamp.",
        ],
        mention: "the webhook retries",
        distractors: &[
            "The queue at the post office was out the door.",
            "The policy of the library allows ten books at a time.",
        ],
        queries: &[
            (Canonical, "webhook retry policy"),
            (Inflection, "retrying failed webhooks"),
            (Paraphrase, "redeliver events dead letter queue"),
            (Typo, "webhok retries"),
        ],
    },
    Topic {
        slug: "lea-moreau",
        area: "people",
        title: "Léa Moreau",
        alt_slug: "freelance-illustrator-contract",
        alt_title: "Freelance illustrator contract",
        facts: &[
            "Léa Moreau is the freelance illustrator for the onboarding screens.",
            "Léa invoices monthly and works Tuesdays to Thursdays from Lyon.",
            "Her contract covers twelve illustrations and two rounds of revisions.",
            "Moreau's studio keeps the source files; we receive SVG exports.",
            "She draws every illustration by hand first and prefers feedback in one document.",
        ],
        mention: "Léa Moreau",
        distractors: &[
            "The train from Lyon was the slow one again.",
            "The studio apartment upstairs is for rent.",
        ],
        queries: &[
            (Accent, "lea moreau"),
            (Canonical, "Léa Moreau illustrator"),
            (Question, "who draws the onboarding illustrations"),
        ],
    },
    Topic {
        slug: "small-team-churn",
        area: "product",
        title: "Churn analysis for small teams",
        alt_slug: "why-small-accounts-cancel",
        alt_title: "Why small accounts cancel",
        facts: &[
            "Churn among teams of one to three seats is twice the average.",
            "Most small accounts cancel in the second month, after the trial discount ends.",
            "Cancellation survey: price is the top reason, then missing integrations.",
            "A win-back email with a month free brought back 6 percent of churned teams.",
            "The churn analysis excludes accounts that were closed for fraud.",
        ],
        mention: "the churn analysis",
        distractors: &[
            "The butter churn at the farm museum still works.",
            "Small teams at the tournament play on half pitches.",
        ],
        queries: &[
            (Canonical, "churn analysis"),
            (Paraphrase, "why small accounts cancel"),
            (Inflection, "churned teams"),
            (Question, "why do small teams cancel"),
        ],
    },
    Topic {
        slug: "drip-irrigation",
        area: "home",
        title: "Drip irrigation for the garden",
        alt_slug: "watering-vegetable-beds",
        alt_title: "Watering the vegetable beds automatically",
        facts: &[
            "The drip irrigation runs at 6:00 for twenty minutes from May to September.",
            "Each tomato plant gets two drippers; the herbs share one line.",
            "The timer battery died in July and the beans suffered.",
            "Watering automatically saves about a third of the water compared with the hose.",
            "Flush the irrigation lines in spring; the filter clogs with sand.",
        ],
        mention: "the drip irrigation",
        distractors: &[
            "The coffee drip at the office tastes burnt.",
            "The garden party is on the 20th.",
        ],
        queries: &[
            (Canonical, "drip irrigation garden"),
            (Paraphrase, "automatic watering vegetable beds"),
            (Question, "when does the garden watering run"),
        ],
    },
    Topic {
        slug: "feature-flag-cleanup",
        area: "engineering",
        title: "Feature flag cleanup",
        alt_slug: "removing-stale-toggles",
        alt_title: "Removing stale toggles",
        facts: &[
            "Feature flags older than ninety days are listed every month for cleanup.",
            "Removing a stale toggle means deleting the flag, its code paths and its tests.",
            "Each flag has an owner and an expiry date in the flag service.",
            "Stale flags caused the pricing bug when two toggles disagreed.",
            "Kill switches are the exception: they stay, documented in the runbook.",
        ],
        mention: "the feature flag cleanup",
        distractors: &[
            "The flag on the town hall was at half mast.",
            "The cleanup of the garage took the whole Saturday.",
        ],
        queries: &[
            (Canonical, "feature flag cleanup"),
            (Inflection, "removing stale flags"),
            (Paraphrase, "delete old toggles"),
        ],
    },
    Topic {
        slug: "quarterly-vat-return",
        area: "finance",
        title: "Quarterly VAT return",
        alt_slug: "vat-filing-checklist",
        alt_title: "VAT filing checklist",
        facts: &[
            "The VAT return is due on the 16th of the second month after the quarter.",
            "The accountant needs all purchase receipts by the 5th.",
            "Last quarter we reclaimed VAT on the new laptops.",
            "Filing late costs a fixed penalty plus interest.",
            "Reverse-charge invoices from EU suppliers are listed separately in the return.",
        ],
        mention: "the VAT return",
        distractors: &[
            "The return flight from Palermo was cancelled.",
            "The quarterly newsletter of the climbing club arrived.",
        ],
        queries: &[
            (Canonical, "quarterly vat return"),
            (Question, "when is the vat return due"),
            (Paraphrase, "filing receipts accountant penalty"),
            (MultiScope, "vat return decision"),
        ],
    },
    Topic {
        slug: "laptop-refresh-cycle",
        area: "operations",
        title: "Laptop refresh cycle",
        alt_slug: "replacing-team-laptops",
        alt_title: "Replacing team laptops every three years",
        facts: &[
            "Laptops are replaced every three years or when a repair costs more than a third of a new one.",
            "The refresh budget for next year covers fourteen machines.",
            "Old laptops are wiped, then offered to the team at a fixed price.",
            "Engineers get 32 GB of memory; everyone else 16 GB.",
            "Replacing the batteries extended five laptops by a year.",
        ],
        mention: "the laptop refresh",
        distractors: &[
            "The refresh rate of the old monitor gives me headaches.",
            "The cycle path along the river is finally finished.",
        ],
        queries: &[
            (Canonical, "laptop refresh cycle"),
            (Inflection, "replaced laptops"),
            (Question, "how often are laptops replaced"),
            (MultiScope, "laptop refresh budget decision"),
        ],
    },
];

/// Single documents an agent looks up by an identifier or an exact title.
pub(crate) const ITEMS: &[Item] = &[
    Item {
        host: Host::MainNote("checkout-timeouts-postmortem"),
        sentence: "Incident ticket: INC-4471.",
        query: "INC-4471",
    },
    Item {
        host: Host::AltNote("api-key-rotation"),
        sentence: "The rotation script is tracked as KR-2291.",
        query: "KR-2291",
    },
    Item {
        host: Host::Note("finance", "Ferro Print invoices"),
        sentence: "Invoice INV-2026-0413 from Ferro Print was paid on the 14th.",
        query: "INV-2026-0413",
    },
    Item {
        host: Host::Note("operations", "Standing desks order"),
        sentence: "Purchase order PO-88317 covers the six standing desks for the second floor.",
        query: "PO-88317",
    },
    Item {
        host: Host::Memory("task"),
        sentence: "Opened LIN-842 for the broken CSV export button on the reports page.",
        query: "LIN-842",
    },
    Item {
        host: Host::Note("engineering", "Staging certificate warning"),
        sentence: "Chrome showed ERR_CERT_DATE_INVALID on the staging site until the certificate was renewed.",
        query: "ERR_CERT_DATE_INVALID",
    },
    Item {
        host: Host::Note("operations", "Meeting room PC updates"),
        sentence: "Windows update failed with error 0x80070005 on the meeting-room PC.",
        query: "0x80070005",
    },
    Item {
        host: Host::Memory("release"),
        sentence: "Released the desktop app v2.14.3 with the offline sync fix.",
        query: "v2.14.3",
    },
    Item {
        host: Host::Note("reading", "Reading notes: Thinking in Systems"),
        sentence: "Meadows on stocks and flows: a system's behaviour comes from its structure.",
        query: "thinking in systems",
    },
    Item {
        host: Host::Note("events", "Lisbon design meetup"),
        sentence: "Talks at the Lisbon design meetup covered type scales and motion.",
        query: "lisbon design meetup",
    },
    Item {
        host: Host::Note("personal", "Phone chargers"),
        sentence: "Ordered two more SKU-30117-BLK chargers for the car.",
        query: "SKU-30117-BLK",
    },
    Item {
        host: Host::Note("people", "Martina Okafor"),
        sentence: "Martina Okafor is the account manager at Ferro Print.",
        query: "martina okafor",
    },
];

/// The kind every item query has.
pub(crate) const ITEM_KIND: Kind = KnownItem;
