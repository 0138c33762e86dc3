// The words between two points of an area that say the line follows a border, a coast or an FIR boundary:
//   592818N 0280236E - THEN ALONG THE TERRITORY DIVIDING LINE BETWEEN ESTONIA AND RUSSIA TO 584722N 0272141E
//   20. 490739N 0222325E THEN ALONG THE STATE BORDER TO THE POINT: 1. 535759N 0233016E          (EPWW)
//   5. 495757N 0230818E NEXT ALONG BORDER TO POINT 6. 494832N 0225624E
//   513451N 0233359E - FURTHER CLOCKWISE ALONG THE STATE BORDER OF THE REPUBLIC OF BELARUS TO 515632N 0233808E
//   534000N0142200E ALONG COAST LINE TO 542700N0130000E                                        (ETCZ)
//   DALEJ WZDLUZ GRANICY PANSTWA PRZECIWNIE DO RUCHU WSKAZOWEK ZEGARA DO PUNKTU                 (Polish)
//   p1 - STATE BORDER - p2,  p1-UKRAINIAN BORDER-p2,  p1-TERRITORY BOUNDARY- p2,  ALONG STATE BDRY TO
// The gap must hold nothing else than such words, joining words and the states' names.
import type { BoundaryKind } from "../../geo/borders.js";

export interface BorderStretch {
  kind: BoundaryKind;
  /** States the text names (ISO 3166-1 alpha-2), in the order written. */
  states: string[];
  /** FIR the text names (kind `fir`). */
  fir?: string;
  /** CLOCKWISE / COUNTERCLOCKWISE written with the stretch: the way round the area. */
  clockwise?: boolean;
  at: number;
  end: number;
}

/** Names and adjectives of states, as NOTAMs of the region write them (English, and Polish for the neighbours). */
const STATES: ReadonlyArray<[string, string]> = [
  ["EE", "ESTONIA|ESTONIAN|REPUBLIC OF ESTONIA|ESTONII"],
  ["RU", "RUSSIA|RUSSIAN FEDERATION|RUSSIAN|ROSJI|ROSJA|FEDERACJI ROSYJSKIEJ"],
  ["BY", "BELARUS|BELARUSIAN|BELORUSSIAN|BIALORUSI|BIALORUS"],
  ["UA", "UKRAINE|UKRAINIAN|UKRAINY|UKRAINA"],
  ["PL", "POLAND|POLISH|POLSKI|POLSKA"],
  ["LT", "LITHUANIA|LITHUANIAN|LITWY|LITWA"],
  ["LV", "LATVIA|LATVIAN|LOTWY"],
  ["FI", "FINLAND|FINNISH"],
  ["NO", "NORWAY|NORWEGIAN"],
  ["SE", "SWEDEN|SWEDISH"],
  ["SK", "SLOVAKIA|SLOVAK|SLOWACJI|SLOWACJA"],
  ["CZ", "CZECH REPUBLIC|CZECHIA|CZECH|CZECH"],
  ["DE", "GERMANY|GERMAN|NIEMIEC|NIEMCY"],
  ["HU", "HUNGARY|HUNGARIAN"],
  ["RO", "ROMANIA|ROMANIAN"],
  ["MD", "MOLDOVA|MOLDOVAN|REPUBLIC OF MOLDOVA"],
  ["RS", "SERBIA|SERBIAN"],
  ["HR", "CROATIA|CROATIAN"],
  ["SI", "SLOVENIA|SLOVENIAN"],
  ["AT", "AUSTRIA|AUSTRIAN"],
  ["CH", "SWITZERLAND|SWISS"],
  ["IT", "ITALY|ITALIAN"],
  ["FR", "FRANCE|FRENCH|FRANCO"],
  ["ES", "SPAIN|SPANISH"],
  ["PT", "PORTUGAL|PORTUGUESE"],
  ["BE", "BELGIUM|BELGIAN"],
  ["NL", "NETHERLANDS|DUTCH"],
  ["LU", "LUXEMBOURG"],
  ["DK", "DENMARK|DANISH"],
  ["GR", "GREECE|GREEK|HELLENIC"],
  ["TR", "TURKEY|TURKIYE|TURKISH"],
  ["BG", "BULGARIA|BULGARIAN"],
  ["MK", "NORTH MACEDONIA|MACEDONIA|MACEDONIAN"],
  ["AL", "ALBANIA|ALBANIAN"],
  ["ME", "MONTENEGRO"],
  ["BA", "BOSNIA AND HERZEGOVINA|BOSNIA"],
  ["XK", "KOSOVO"],
  ["GE", "GEORGIA|GEORGIAN"],
  ["AM", "ARMENIA|ARMENIAN"],
  ["AZ", "AZERBAIJAN"],
];
const STATE_RE = new RegExp(String.raw`\b(${STATES.map(([, n]) => n).join("|")})\b`, "g");
const STATE_OF = new Map(STATES.flatMap(([iso, names]) => names.split("|").map((n) => [n, iso] as const)));

const LINE =
  /\b(?:BORDERS?|BDRY|BOUNDARY|FRONTIER|FRONTIERE|DIVIDING LINE|COAST ?LINES?|COASTLINES?|COAST|SHORE ?LINE|GRANIC[AYE]|STAATSGRENZE|GRENZE)\b/;
const LINE_ANY_CASE = new RegExp(LINE.source, "i");
const COUNTER = /\b(?:ANTI-?\s?|COUNTER-?\s?)CLOCKWISE\b|\bPRZECIWNIE DO RUCHU WSKAZOWEK ZEGARA\b|\bACW\b|\bCCW\b/;
const CLOCKWISE = /\bCLOCKWISE\b|\bZGODNIE Z RUCHEM WSKAZOWEK ZEGARA\b|\bCW\b/;
const FILLER =
  /\b(?:THEN|THENCE|NEXT|FURTHER|AND|TO|UP|TILL|UNTIL|ALONG|FOLLOWING|FOLLOWS|BY|THE|OF|WITH|BETWEEN|BTN|POINTS?|PSN|STATE|NATIONAL|INTERNATIONAL|TERRITORY|TERRITORIAL|DIVIDING|LINES?|REPUBLIC|FIR|BDRY|BOUNDARY|BORDERS?|FRONTIERE?|COAST|COASTLINES?|SHORE|ANTI|COUNTER|CLOCKWISE|COUNTERCLOCKWISE|ANTICLOCKWISE|ACW|CCW|CW|DIRECTION|IN|DALEJ|WZDLUZ|GRANIC[AYE]|PANSTWA|PANSTWOWEJ|DO|PUNKTU|PRZECIWNIE|ZGODNIE|Z|RUCHU|RUCHEM|WSKAZOWEK|ZEGARA|ENTLANG|DER|STAATSGRENZE|GRENZE|BIS|ZUM|PUNKT)\b/g;

/** The border stretch a gap between two points of a chain describes, if it says nothing else. */
export function borderStretch(gap: string, at: number): BorderStretch | undefined {
  if (!LINE_ANY_CASE.test(gap)) return undefined;
  const t = gap
    .toUpperCase()
    .replace(/\([^()]{0,60}\)/g, " ")
    // numbered points: `… TO THE POINT:\n1. 535759N`
    .replace(/(?<![\d.,])\d{1,2}\.(?=\s|$)/g, " ");
  if (!LINE.test(t)) return undefined;
  const firNamed = /\b([A-Z]{4})\s+(?:FIR|UIR)\b|\b(?:FIR|UIR)\s+([A-Z]{4})\b/.exec(t);
  const fir = /\bFIR\b|\bUIR\b/.test(t);
  const coast = /\bCOAST|\bSHORE/.test(t);
  const states = [...new Set([...t.matchAll(STATE_RE)].map((m) => STATE_OF.get(m[1]!)!))];
  const rest = t
    .replace(STATE_RE, " ")
    .replace(firNamed?.[0] ?? "\u0000", " ")
    .replace(/\bFRANCO-/g, " ")
    .replace(FILLER, " ");
  if (!/^[\s\-–—,;:/.']*$/.test(rest)) return undefined;
  const clockwise = COUNTER.test(t) ? false : CLOCKWISE.test(t) ? true : undefined;
  return {
    kind: fir ? "fir" : coast ? "coast" : "state",
    states,
    ...(firNamed ? { fir: firNamed[1] ?? firNamed[2]! } : {}),
    ...(clockwise === undefined ? {} : { clockwise }),
    at,
    end: at + gap.length,
  };
}
