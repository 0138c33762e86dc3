// What a NOTAM does to the airspaces it is about, and which airspaces it only mentions (docs/design.md §4 "activation, not
// mention"). The Q-code's condition says what happens (CA, CS, LW, AH activate; CD deactivates; CH changes or informs)
// and Item E's words refine it, in English, French, German and the other languages Europe writes:
//   `LF-R68 A B C ACTIVES`, `RESTRICTED AREA EDR132B (HEUBERG) ACT`, `LJR4 … AKTIVIRANO`   the area is the subject
//   `LIMITES LATERALES : IDENTIQUES A LA LF-R6A`, `COEXISTS WITH LF-P7`, `… WITHIN BIARRITZ CTR`,
//   `EXC EPP28 TIME OF ACTIVITY`, `A L'EXCLUSION DE LA LF-R149A`, `DURING ACTIVATION OF NLFS (EDR150)`      mentions
//   `LF-R597 'SAINT JEAN DE LINIERES' MODIFIEE : MODIFICATION DES NUMEROS DE TELEPHONE`      informs: no activity
//   `LF-R574 A AUVOURS MODIFIEE : HOR MODIFIES : POSSIBLE ACTIVATION H24`          changes: it may be active
// Pure: text in, a judgement out.

/** What a NOTAM does to each airspace it is about. */
export const NOTAM_EFFECTS = ["activate", "deactivate", "change", "inform"] as const;
export type NotamEffect = (typeof NOTAM_EFFECTS)[number];

/** Conditions that say the subject is active, installed, taking place, or its hours of service. */
const ACTIVATING = new Set(["CA", "CS", "LW", "AH", "LT", "LP", "AL", "LV", "LC"]);
/**
 * Item E says the subject is active: `ACTIVE`, `ACT`, `ACTIVATED`, `ACTIVES`, `AKTIV`, `AKTIVIRANO`, or that a
 * temporary one exists from now: `TEMPORARY PROHIBITED AREAS ESTABLISHED` (EYVN-A0357/26, QRPTT), `TEMPO DANGER AREA
 * (TDA) EGD188 INSTALLED`, `TEMPORARY RESTRICTED AREA IMPLEMENTED` (LIIA-W5123/25); not what is established inside it:
 * `MANDATORY TRANSPONDER ZONE ESTABLISHED IN A PORTION OF THE SCOTTISH TMA` activates no TMA.
 */
const ACTIVE_WORDS =
  /\b(?:ACTIVE[ES]?|ACTIVEES|ACTIVATED?|ACTIVATION|ACT|AKTIV\w*|ACTIVA\w*|(?:ESTABLISHED|INSTALLED|IMPLEMENTED)(?!\s+(?:IN|WI|WITHIN|INSIDE)\b))\b/;
/** Item E changes the subject's hours, limits or status rather than stating its activity. */
const CHANGE_WORDS =
  /\b(?:MODIFI\w*|CHANGED?|CHG|AMEND\w*|AMDT|(?:ARE|IS) NOW|ACTIVABLE|POSSIBLE ACTIVATION|NEW|NOUVE\w*|READ|LIRE|AJOUTER|ADD|SUPPRIM\w*|WITHDRAWN)\b/;
/** Item E changes only how to reach the subject's operator: telephone, mail, address, contact. */
const CONTACT_WORDS =
  /\b(?:TEL(?:EPHONE)?|PHONE|NUMEROS? DE TELEPHONE|MAIL|E-MAIL|ADRESSE|ADDRESS|CONTACT|CTC|FAX|GSM|FREQ|FREQUENCY)\b/;
/** Words that make a change more than a contact change: hours, limits, activity, status. */
const SUBSTANCE_WORDS =
  /\b(?:HOR(?:AIRES?)?|HOURS?|HR|ACTIV\w*|LIMIT\w*|PLANCHER|PLAFOND|FLOOR|CEILING|STATUT|STATUS|H24|\d{4}-\d{4})\b/;

/**
 * What a NOTAM does to the airspaces it is about, from its Q-code condition (letters 4–5) and Item E: `activate`
 * (active, installed, taking place, hours of service), `deactivate` (CD), `change` (a change of hours, limits or
 * status that does not say it is active: the airspace may be active, it is never `No` for it) or `inform` (contact
 * changes and the like: nothing for its activity).
 */
export function notamEffect(condition: string | undefined, itemE: string): NotamEffect {
  const e = itemE.toUpperCase();
  if (condition === "CD") return "deactivate";
  if (condition !== undefined && ACTIVATING.has(condition)) return "activate";
  const substance = SUBSTANCE_WORDS.test(e.replace(/\b\d{2}[ .]?\d{2}[ .]?\d{2}[ .]?\d{2}[ .]?\d{2}\b/g, ""));
  if (CONTACT_WORDS.test(e) && !substance) return "inform";
  // a plain statement of activity (`LF-R45 ACTIVE`) under a condition that is not CA (XX, CH)
  if (ACTIVE_WORDS.test(e) && !CHANGE_WORDS.test(e)) return "activate";
  // a change of its hours or status; a service's availability (`NO DANGER AREA CROSSING SERVICE AVAILABLE`) only informs
  return CHANGE_WORDS.test(e) && substance ? "change" : "inform";
}

/**
 * Words shortly before a designator, in the same clause, that make it a reference rather than the NOTAM's subject:
 * `IDENTIQUES A LA X`, `SAME AS X`, `COEXISTS WITH X`, `EXC X`, `OUTSIDE X HOURS`, `A L'EXCLUSION DE LA X`, `REF AIP X`,
 * `DURING ACTIVATION OF X`, `ADJACENT TO X`, `BELOW X`, `CTC X`. A comma or full stop ends the clause: in `OUTSIDE
 * OPN HR OF EBFS AD, EB-R06B IS ACTIVE` the aerodrome is context and EB-R06B the subject.
 */
const REFERENCE = new RegExp(
  String.raw`\b(?:` +
    [
      "IDENTIQUES?(?: A| AUX?)?(?: CELLES?| CEUX)?(?: DE)?(?: LA| LE| LES)?",
      "IDENTICAL(?: TO)?",
      // `(LATERAL LIMITS COINCIDENTAL WITH LED125)` (LEAN D0335/26): a new area drawn on another's outline
      "COINCID\\w*(?: WITH| TO)?",
      "SAME(?: AS)?",
      "COEXIST\\w*(?: WITH| AVEC)?(?: LES?| LA)?",
      "OUTSIDE",
      "EN DEHORS(?: DES?| DU)?",
      "EXCEPT(?:ING)?",
      "EXC(?:L|LUDING)?",
      "SAUF",
      "A L'EXCLUSION(?: DE)?(?: LA| LE| LES)?",
      "NOT",
      "ADJ(?:ACENT)?(?: TO)?",
      "BELOW",
      "ABOVE",
      "UNDER(?:NEATH)?",
      "SOUS",
      "NEAR",
      "VICINITY(?: OF)?",
      "PROXIMITE(?: DE)?(?: LA)?",
      "SEE",
      "REF(?:ER TO)?",
      "AVOID",
      "CLEAR OF",
      "CTC",
      "CONTACT",
      "DURING(?: THE)? (?:ACTIVATION|ACTIVITY|ACT)(?: OF)?",
      "PENDANT(?: L'ACTIVITE| L'ACTIVATION)?(?: DE)?(?: LA| LE)?",
    ].join("|") +
    String.raw`)\b[^,.;:]{0,30}$`,
);
/** `REF AIP …` and `SEE AIP …` up to the designator without a sentence's end (`. `) between (lines only wrap). */
const REF_CLAUSE = /\b(?:REF|SEE|VOIR)\b(?:\s+(?:AIP|SUP|AIC|ENR|AD))(?:(?!\.\s).)*$/s;
/** The start of an item of a numbered list (`⏎30) `): it ends a clause as a full stop does. */
const LIST_ITEM = /\n\s*\d{1,2}\)\s/g;
/** Places an activity inside an airspace, or makes it a condition (`DRONE ACTIVITY IN CTR ORANGE`, `DANS LA CTR
 * BIARRITZ`, `LORSQUE LA CTR BIARRITZ EST ACTIVE`): a reference unless the Q-code is about that kind of airspace
 * itself (QATLT `Y AND Z WITHIN LSGG TMA PROHIBITED`, `… WHEN WI AND WHEN APPROACHING BORDERS OF LOCARNO CTR`). */
const LOCATION =
  /\b(?:WITHIN|WI|INSIDE|IN|DANS|W|INNERHALB|IM|EN|BORDERS? OF|WHEN|WHILE|LORSQUE|QUAND|WENN)\b[^,.;:]{0,24}$/;
/** The new designator of a renamed area, written right after the words (`AMEND TO READ`, `CHG IDENTIFICATION IN`). */
const RENAMED = /\b(?:AMEND(?:ED)? TO READ|SHALL READ|CHG IDENTIFICATION (?:IN|TO)|RENAMED(?: AS| TO)?) '?$/;
/** A new zone that stands in for parts of others (`SE SUBSTITUE AUX PARTIES DE LA CTR … ET DE LA ZRT 1.1 …`). */
const STANDS_IN = /\b(?:SUBSTITUE\w*|SUPERSEDES?|REPLACES?|REMPLACE\w*)\b[^.;:]{0,80}$/;

const RESTRICTIVE = ["R", "D", "P", "TRA", "TSA", "CBA", "MTA", "HTA", "LFA", "ZRT", "ZIT", "ZDT"];
const ORGANISATION = ["CTR", "TMA", "CTA", "ATZ", "RMZ", "TMZ", "MCTR", "MTMA", "MATZ"];
/** Which airspace kinds a Q-code subject (letters 2–3) is about: an airspace-organisation NOTAM (`QATLT VFR TRAINING
 * PROHIBITED IN LILLE CTR AND TMA`) restricts the controlled airspace it names, whatever the preposition. */
const Q_SUBJECT_KINDS: Record<string, readonly string[]> = {
  AC: ORGANISATION,
  AT: ORGANISATION,
  AE: ORGANISATION,
  AZ: ORGANISATION,
  AR: ["ATS ROUTE"],
  AU: ["UIR"],
  AF: ["FIR"],
  RR: RESTRICTIVE,
  RD: RESTRICTIVE,
  RP: RESTRICTIVE,
  RT: RESTRICTIVE,
  RA: RESTRICTIVE,
  RM: RESTRICTIVE,
};

/**
 * Whether the designator or name at `at` in `text` is only mentioned. `target` is the kind of airspace it names
 * (`R`, `D`, `P`, `CTR`, `TMA`, `TRA` …) and `qSubject` the Q-code's letters 2–3: an activity placed `IN` an
 * airspace is a mention unless the Q-code is about that kind of airspace.
 */
export function isMention(text: string, at: number, target: string, qSubject?: string): boolean {
  // lines only wrap (`… SYMPAV EN\nDEHORS DES HORAIRES DE LA CTR MELUN`): one blank between words
  // a NOTAM about a kind of airspace names others only as places: `RESTRICTED AREA (TEMPORARY) ACTIVE (CORRIDOR
  // BETWEEN WITHAM AND LONDON CITY CTR)` (QRTCA) is the temporary area's own, not the CTR's
  const upper = text.toUpperCase();
  const before = upper.slice(Math.max(0, at - 80), at).replace(/\s+/g, " ");
  // a new name is its area's (`AREA PT1 AMEND TO READ LPD1AW`, LPPP A0577/26 under QAFXX): whatever the Q-code
  if (RENAMED.test(before)) return false;
  const kinds = qSubject ? Q_SUBJECT_KINDS[qSubject] : undefined;
  if (kinds && target !== "" && !kinds.includes(target)) return true;
  if (REFERENCE.test(before) || STANDS_IN.test(before)) return true;
  // `REF AIP : AD 2 LFBZ.3, AD 2 LFBZ TXT 04, ENR 2.1 TMA BIARRITZ 3, 7, 8.`: a reference runs to its sentence's end
  // … and to the next item of a numbered list (`LATERAL LIMITS: REF AIP ENR 5.2.2.4-1 …⏎30) RESTRICTED AREA LI-R49 A:`)
  const clause = upper.slice(Math.max(0, at - 200), at).replace(LIST_ITEM, ". ");
  if (REF_CLAUSE.test(clause.replace(/\s+/g, " "))) return true;
  if (!LOCATION.test(before)) return false;
  return !kinds?.includes(target);
}

/** The kind of airspace a normalised designator names: `LFR201B` → R, `EPTR767A` → TRA, `LKTSA24` → TSA. */
export function kindOfDesignator(designator: string): string {
  const m = /^(?:[A-Z]{2})?(TRA|TSA|CBA|MTA|LFA|HTA|TR|TS|R|D|P)\d/.exec(designator);
  const k = m?.[1] ?? "";
  return k === "TR" ? "TRA" : k === "TS" ? "TSA" : k;
}
