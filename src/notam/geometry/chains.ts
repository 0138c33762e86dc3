// Item E as a sequence of parts: chains of coordinates joined by separators (`p1 - p2 - p3`,
// `… THENCE STRAIGHT LINES JOINING …`, newlines), arcs inside chains, and circles given by a centre.
//
//   p1 - p2 THENCE CLOCKWISE BY THE ARC OF A CIRCLE RADIUS 5NM CENTRED ON c TO p3 - p4
//   └─────── chain ──────────┘ └────────── centre clause ─────────────────┘  └ arc end, chain goes on
//
// The text between two coordinates (the gap) decides: a link continues the chain, a centre clause
// makes the next coordinate an arc or circle centre, anything else starts a new chain.
import type { LatLon } from "../../geo/geodesy.js";
import { type BorderStretch, borderStretch } from "./border-text.js";
import { type ParsedCoordinate, parseCoordinates } from "./coordinates.js";
import { distances } from "./distances.js";

export interface Arc {
  centre: LatLon;
  /** As written; the arc itself runs from the previous vertex to `to`. */
  radiusM: number | undefined;
  /** undefined when the text names no direction. */
  clockwise: boolean | undefined;
  at: number;
}
/** `arc`: the line from the vertex before is an arc; `border`: it follows a border, coast or FIR boundary. */
export type Vertex = { point: LatLon; at: number; arc?: Arc; border?: BorderStretch };

export type Part =
  | {
      kind: "chain";
      vertices: Vertex[];
      at: number;
      end: number;
      /** Text before the chain (from the previous part) and after it (to the next coordinate). */
      leadAt: number;
      tailEnd: number;
      /** Points joined by OR: alternatives, never a line. */
      alternatives: boolean;
    }
  | { kind: "circle"; centre: LatLon; radiusM: number | undefined; at: number; end: number };

type Chain = Extract<Part, { kind: "chain" }>;

// `CENTRED ON`, `CENTRE`, `CENTERED AT (`, French `CENTRE SUR`
const CENTRE_END =
  /(?:CENTRED|CENTERED|CENTRE|CENTER)(?:\s+(?:IS\s+)?(?:ON|AT|OF|SUR))?(?:\s+(?:PSN|POSITION|POINT))?[\s:,(]*$/i;
const CLAUSE_START =
  /ANTI-?\s?CLOCK\s?WISE|COUNTER-?\s?CLOCK\s?WISE|CLOCK\s?WISE|\bA?C?CW\b|\bARC(?:US|O)?\b|\bCIRCLE\b|\bRADIUS\b|\d+(?:[.,]\d+)? ?(?:NM|KM|M)\b/i;
// French `ARC HORAIRE` / `ARC ANTI-HORAIRE`; `RETROGRADE` names no direction a reader can be sure of
const COUNTER = /ANTI-?\s?CLOCK\s?WISE|COUNTER-?\s?CLOCK\s?WISE|\bACW\b|\bCCW\b|\bANTI-?\s?HORAIRE\b/i;
const CLOCKWISE = /CLOCK\s?WISE|\bCW\b|\bHORAIRE\b/i;
const NAMED = String.raw`(?:\s+(?:THE\s+)?(?:PSNS?|POSITIONS?|POINTS?))?`;
const FROM = new RegExp(String.raw`^[\s,]*(?:FROM|FM|BTN|BETWEEN)${NAMED}[\s:,\-–—]*$`, "i");
// `TO`, `- `, `(SAINT PETERSBURG) TO`, `COUNTER CLOCKWISE UP TO`, `TILL POINT`, `TILL TO POINT`
// `CENTERED ON c RADIUS 1000M⏎TILL POINT p`, `RADIUS OF 1000M TILL POINT OF ORIGIN p` (LIIA)
const TO =
  /^[\s,]*(?:\([^()\d]{0,60}\)[\s,]*)?(?:RADIUS\s+(?:OF\s+)?\d+(?:[.,]\d+)?\s?(?:NM|KM|M)\s+)?(?:(?:IN\s+)?(?:(?:ANTI-?\s?|COUNTER-?\s?)?CLOCK\s?WISE(?:\s+DIRECTION)?\s+|A?C?CW\s+))?(?:THEN(?:CE)?\s+)?(?:UP\s+TO|TILL(?:\s+TO)?|UNTIL|TO|AND|[-–—])(?:\s+(?:THE\s+)?(?:PSN|POSITION|POINT)(?:\s+OF\s+ORIGIN)?)?[\s:,]*$/i;
// `385036N 0064303W,⏎FROM THIS POINT FOLLOWING AN ARC …` (Spain)
const LINK_WORDS =
  /\b(?:FROM\s+THIS\s+POINT|TO|AND|OR|THEN|THENCE|STRAIGHT|LINES?|JOINING|JOIN|SUCCESSIVELY|ALONG|BY|A|AN|THE|OF|POINTS?|PSNS?|POSITIONS?|BACK|FOLLOWING|BTN|BETWEEN|LATITUDE|LONGITUDE|PARALLEL|MERIDIAN)\b/gi;
const ORIGIN =
  /^[\s,]*(?:\([^()\d]{0,60}\)[\s,]*)?(?:(?:IN\s+)?(?:(?:ANTI-?\s?|COUNTER-?\s?)?CLOCK\s?WISE(?:\s+DIRECTION)?\s+))?(?:BACK\s+)?(?:UP\s+TO|TILL(?:\s+TO)?|UNTIL|TO)\s+(?:THE\s+)?(?:POINT\s+OF\s+(?:ORIGIN|BEGINNING|DEPARTURE)|(?:STARTING|START|FIRST|INITIAL)\s+POINT|ORIGIN|BEGINNING)\b/i;
/** Shaped like a coordinate but out of range (`510635N 5012927E`): skipped, the chain goes on. */
export const BAD_COORDINATE = /(?<![\d.,])\d{4,}(?:[.,]\d+)?\s?[NS]\s?,?\s*\d{4,}(?:[.,]\d+)?\s?[EW](?![A-Z])/gi;

/** Points in brackets after their names: `CRP GOLIM (p1) - CRP ROTAT (p2) -⏎CRP EDINI (p3)` (UUUU U0705/25). */
const NAMED_POINT_GAP = /^\s*\)\s*[-–—,]?\s*(?:[A-Z][A-Z'-]*\s+){0,3}\(\s*$/i;

/** Only separators, joining words and short place names in brackets: the chain goes on. */
export function isLink(gap: string): boolean {
  if (NAMED_POINT_GAP.test(gap)) return true;
  const rest = gap
    .replace(BAD_COORDINATE, " ")
    // numbered points: `LATERAL LIMITS: 1. p1 2. p2 … 1. p1` (Poland)
    .replace(/(?<![\d.,])\d{1,2}\.(?=\s|$)/g, " ")
    .replace(/\([^()\d]{0,60}\)/g, " ")
    .replace(LINK_WORDS, " ");
  return /^[\s\-–—,;:/]*$/.test(rest);
}

function isOpen(chain: Chain): boolean {
  const first = chain.vertices[0]!.point;
  const last = chain.vertices[chain.vertices.length - 1]!.point;
  return chain.vertices.length > 1 && (first.lat !== last.lat || first.lon !== last.lon);
}

interface CentreClause {
  start: number;
  /** Names a direction or an ARC: not a plain circle. */
  arc: boolean;
  radiusM: number | undefined;
  clockwise: boolean | undefined;
}

/** `… CLOCKWISE BY THE ARC OF A CIRCLE RADIUS 5NM CENTRED ON` at the end of a gap, or `RADIUS 2NM CENTRED ON`. */
function centreClause(gap: string): CentreClause | undefined {
  const tail = CENTRE_END.exec(gap);
  if (!tail) return undefined;
  // the clause stays inside its sentence (a full stop before white space; `5.5NM` is no full stop)
  const sentence = gap.slice(0, tail.index).search(/(?:^|\.\s)(?:(?!\.\s)[\s\S])*$/);
  const start = gap.slice(sentence, tail.index).search(CLAUSE_START);
  if (start < 0) return undefined;
  const clause = gap.slice(sentence + start, tail.index);
  // `0.27 RADIUS CENTRED ON`: the number may stand before the clause's first word
  const radius = (distances(clause).at(-1) ?? distances(gap.slice(sentence, tail.index)).at(-1))?.metres;
  const clockwise = COUNTER.test(clause) ? false : CLOCKWISE.test(clause) ? true : undefined;
  return {
    start: sentence + start,
    arc: clockwise !== undefined || /\bARC\b/i.test(clause),
    radiusM: radius,
    clockwise,
  };
}

/** The parts of an Item E, in order. */
export function parseParts(text: string, cs: readonly ParsedCoordinate[] = parseCoordinates(text)): Part[] {
  const parts: Part[] = [];
  let chain: Chain | undefined;
  let prevEnd = 0;
  const close = () => {
    if (chain) parts.push(chain);
    chain = undefined;
  };
  const gapBefore = (k: number) => text.slice(k === 0 ? 0 : cs[k - 1]!.end, cs[k]!.at);
  const start = (c: ParsedCoordinate, leadAt: number): Chain => ({
    kind: "chain",
    vertices: [],
    at: c.at,
    end: c.end,
    leadAt,
    tailEnd: text.length,
    alternatives: false,
  });
  for (let i = 0; i < cs.length; ) {
    const c = cs[i]!;
    const gap = text.slice(prevEnd, c.at);
    const clause = centreClause(gap);
    if (clause) {
      // `… AND 520708N 0001947W. A CLOCKWISE ARC …`: a full stop before an arc does not end an open chain
      const link = gap.slice(0, clause.start);
      if (chain && !isLink(link) && !(isOpen(chain) && isLink(link.replace(/\./g, " ")))) close();
      const g1 = i + 1 < cs.length ? gapBefore(i + 1) : undefined;
      const fromTo = g1 !== undefined && FROM.test(g1) && i + 2 < cs.length && TO.test(gapBefore(i + 2));
      // `CENTRED ON c TO p` continues a chain; `RADIUS 2NM CENTRED ON p1 - p2` without ARC is two circles
      // French lists go on with a comma: `ARC HORAIRE DE 5NM DE RAYON CENTRE SUR c,⏎p2,`
      const toNext =
        g1 !== undefined &&
        chain !== undefined &&
        ((TO.test(g1) && (clause.arc || /\bTO\b/i.test(g1))) || (clause.arc && /^[\s,;]*$/.test(g1)));
      // `… CENTRED ON c TILL TO POINT OF ORIGIN`: the arc ends where the area began
      const home =
        chain && clause.arc ? ORIGIN.exec(text.slice(c.end, i + 1 < cs.length ? cs[i + 1]!.at : undefined)) : null;
      if (home && chain && !toNext && !fromTo) {
        const dir = clause.clockwise ?? (COUNTER.test(home[0]) ? false : CLOCKWISE.test(home[0]) ? true : undefined);
        const first = chain.vertices[0]!;
        chain.vertices.push({
          point: first.point,
          at: c.at,
          arc: { centre: c, radiusM: clause.radiusM, clockwise: dir, at: c.at },
        });
        chain.end = c.end + home[0].length;
        prevEnd = chain.end;
        i++;
        continue;
      }
      if (fromTo || toNext) {
        const from = fromTo ? cs[i + 1]! : undefined;
        const to = fromTo ? cs[i + 2]! : cs[i + 1]!;
        chain ??= start(from ?? c, prevEnd);
        if (from) chain.vertices.push({ point: from, at: from.at });
        const dir = clause.clockwise ?? (COUNTER.test(g1!) ? false : CLOCKWISE.test(g1!) ? true : undefined);
        const radiusM = clause.radiusM ?? (fromTo ? undefined : distances(g1!)[0]?.metres);
        const arc: Arc = { centre: c, radiusM, clockwise: dir, at: c.at };
        chain.vertices.push({ point: to, at: to.at, arc });
        chain.end = to.end;
        prevEnd = to.end;
        i += fromTo ? 3 : 2;
        continue;
      }
      close();
      parts.push({ kind: "circle", centre: c, radiusM: clause.radiusM, at: c.at, end: c.end });
      prevEnd = c.end;
      i++;
      continue;
    }
    const link = chain !== undefined && isLink(gap);
    const border = chain && !link ? borderStretch(gap, prevEnd) : undefined;
    if (!chain || (!border && !link)) {
      close();
      chain = start(c, prevEnd);
    } else if (/\bOR\b/i.test(gap)) chain.alternatives = true;
    chain.vertices.push({ point: c, at: c.at, ...(border ? { border } : {}) });
    chain.end = c.end;
    prevEnd = c.end;
    i++;
  }
  close();
  for (const [k, p] of parts.entries()) if (p.kind === "chain") p.tailEnd = parts[k + 1]?.at ?? text.length;
  return parts;
}
