// Item D text to tokens, each with its position in the original text (for issues).
//   "MON-FRI 0800-1600, SR MINUS30-SS PLUS30 EXC DEC 25"  →  WEEKDAY DASH WEEKDAY TIME DASH TIME COMMA SUN …
// Lower case, line breaks, repeated blanks and glued letters/digits (`MINUS30`, `H24`) are all accepted.

export const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"] as const;
/** Weekdays in JavaScript's getUTCDay order (0 = Sunday). */
export const WEEKDAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] as const;

/** Words that point outside the text: the schedule cannot be known from Item D alone (docs/design.md §3 `unsupported`). */
const UNSUPPORTED = new Set([
  "HOL",
  "HOLIDAY",
  "HOLIDAYS",
  "PH",
  "SEE",
  "AIP",
  "SUP",
  "AIC",
  "BY",
  "ATC",
  "HX",
  "HO",
  "NOTAM",
  "TBA",
  "TBC",
  "TBD",
  "OR",
  "REQ",
  "PPR",
  "O/R",
  "ACT",
  "ACTIVATION",
  "UNTIL",
  "FURTHER",
  "NOTICE",
  "UFN",
  "AS",
  "DETERMINED",
]);

export type Token =
  | { kind: "day"; value: number; at: number; text: string }
  | { kind: "time"; value: number; at: number; text: string } // minutes after 00:00, 2400 allowed
  | { kind: "month"; value: number; at: number; text: string } // 0–11
  | { kind: "weekday"; value: number; at: number; text: string } // 0 = SUN
  | { kind: "sun"; value: "SR" | "SS"; at: number; text: string }
  | { kind: "offset"; value: number; at: number; text: string } // PLUS/MINUS n minutes, signed
  | { kind: "word"; value: "DAILY" | "H24" | "HJ" | "HN" | "EXC" | "EVERY" | "AND" | "TO"; at: number; text: string }
  | { kind: "dash" | "comma" | "slash"; at: number; text: string }
  | { kind: "unsupported" | "unknown"; at: number; text: string };

/** A hand-written scanner: the regular expression it replaced (one alternation per token) cost twice as much per
 * Item D in the schedule benchmark, and its positions and tokens are the same on every string of the corpus. */
export function tokenize(input: string): Token[] {
  const out: Token[] = [];
  // ASCII letters only: full Unicode upper-casing turns ß into SS and ı into I, inventing keywords (and
  // shifting positions); any other letter stays what it is and is not understood
  const text = /[a-z]/.test(input) ? input.replace(/[a-z]+/g, (w) => w.toUpperCase()) : input;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) {
      let j = i + 1;
      while (j < n && isUpper(text.charCodeAt(j))) j++;
      i = word(text.slice(i, j), i, out, text);
    } else if (isDigit(c)) {
      let j = i + 1;
      while (j < n && isDigit(text.charCodeAt(j))) j++;
      number(text.slice(i, j), i, out);
      i = j;
    } else {
      if (c === 45 || c === 0x2013 || c === 0x2014) out.push({ kind: "dash", at: i, text: text[i]! });
      else if (c === 44 || c === 59) out.push({ kind: "comma", at: i, text: text[i]! });
      else if (c === 47) out.push({ kind: "slash", at: i, text: "/" });
      else if (c !== 46 && !isSpace(c, text, i)) out.push({ kind: "unknown", at: i, text: text[i]! });
      i++;
    }
  }
  return out;
}

const isUpper = (c: number) => c >= 65 && c <= 90;
const isDigit = (c: number) => c >= 48 && c <= 57;

/** Whether the text is empty or all blank (what `!/\S/.test(text)` says, without entering the expression engine). */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i), text, i)) return false;
  return true;
}
/** What `\s` matches: ASCII blanks, and Unicode's (rare here) through the expression itself. */
export const isSpace = (c: number, text: string, i: number) =>
  c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(text[i]!));

function number(digits: string, at: number, out: Token[]): void {
  if (digits.length <= 2) {
    out.push({ kind: "day", value: Number(digits), at, text: digits });
    return;
  }
  if (digits.length === 4) {
    const hh = (digits.charCodeAt(0) - 48) * 10 + digits.charCodeAt(1) - 48;
    const mm = (digits.charCodeAt(2) - 48) * 10 + digits.charCodeAt(3) - 48;
    if (mm < 60 && (hh < 24 || (hh === 24 && mm === 0))) {
      out.push({ kind: "time", value: hh * 60 + mm, at, text: digits });
      return;
    }
  }
  out.push({ kind: "unknown", at, text: digits });
}

/** Reads the word at `at` (more when it takes the digits after it); returns where the next token starts. */
function word(w: string, at: number, out: Token[], text: string): number {
  const next = at + w.length;
  const month = MONTHS.indexOf(w.slice(0, 3) as (typeof MONTHS)[number]);
  if (month >= 0 && isMonthWord(w)) return push(out, { kind: "month", value: month, at, text: w }, next);
  const weekday = WEEKDAYS.indexOf(w.slice(0, 3) as (typeof WEEKDAYS)[number]);
  if (weekday >= 0 && isWeekdayWord(w)) return push(out, { kind: "weekday", value: weekday, at, text: w }, next);
  switch (w) {
    case "SR":
    case "SS":
      return push(out, { kind: "sun", value: w, at, text: w }, next);
    case "PLUS":
    case "MINUS": {
      // PLUS30, PLUS 30, MINUS 1HR is not seen in real data: minutes only
      const n = /^\s*(\d{1,3})/.exec(text.slice(next));
      if (!n?.[1]) return push(out, { kind: "unknown", at, text: w }, next);
      const end = next + n[0].length;
      const sign = w === "PLUS" ? 1 : -1;
      return push(out, { kind: "offset", value: sign * Number(n[1]), at, text: text.slice(at, end) }, end);
    }
    case "DAILY":
    case "DLY":
      return push(out, { kind: "word", value: "DAILY", at, text: w }, next);
    case "H":
      // H24 arrives as H + 24
      if (text.startsWith("24", next)) return push(out, { kind: "word", value: "H24", at, text: "H24" }, at + 3);
      break;
    case "HJ":
    case "HN":
    case "EXC":
    case "EVERY":
    case "AND":
    case "TO":
      return push(out, { kind: "word", value: w, at, text: w }, next);
    case "EXCEPT":
      return push(out, { kind: "word", value: "EXC", at, text: w }, next);
  }
  return push(out, { kind: UNSUPPORTED.has(w) ? "unsupported" : "unknown", at, text: w }, next);
}

function push(out: Token[], t: Token, next: number): number {
  out.push(t);
  return next;
}

const MONTH_WORDS =
  /^(JAN(UARY)?|FEB(RUARY)?|MAR(CH)?|APR(IL)?|MAY|JUNE?|JULY?|AUG(UST)?|SEP(T|TEMBER)?|OCT(OBER)?|NOV(EMBER)?|DEC(EMBER)?)$/;
const WEEKDAY_WORDS = /^(MON(DAY)?|TUE(S|SDAY)?|WED(NESDAY)?|THU(R|RS|RSDAY)?|FRI(DAY)?|SAT(URDAY)?|SUN(DAY)?)$/;
const isMonthWord = (w: string) => MONTH_WORDS.test(w);
const isWeekdayWord = (w: string) => WEEKDAY_WORDS.test(w);
