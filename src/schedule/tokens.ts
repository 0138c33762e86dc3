// Item D text to tokens, each with its position in the original text (for issues).
//   "MON-FRI 0800-1600, SR MINUS30-SS PLUS30 EXC DEC 25"  →  WEEKDAY DASH WEEKDAY TIME DASH TIME COMMA SUN …
// Lower case, line breaks, repeated blanks and glued letters/digits (`MINUS30`, `H24`) are all accepted.

export const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"] as const;
/** Weekdays in JavaScript's getUTCDay order (0 = Sunday). */
export const WEEKDAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] as const;

/** Words that point outside the text: the schedule cannot be known from Item D alone (DESIGN §3 `unsupported`). */
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

export function tokenize(input: string): Token[] {
  const out: Token[] = [];
  // ASCII letters only: full Unicode upper-casing turns ß into SS and ı into I, inventing keywords (and
  // shifting positions); any other letter stays what it is and is not understood
  const text = input.replace(/[a-z]+/g, (w) => w.toUpperCase());
  const re = /([A-Z]+)|(\d+)|([-–—])|(,|;)|(\/)|(\S)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const at = m.index;
    const raw = m[0];
    if (m[1]) word(m[1], at, out, text, re);
    else if (m[2]) number(m[2], at, out);
    else if (m[3]) out.push({ kind: "dash", at, text: raw });
    else if (m[4]) out.push({ kind: "comma", at, text: raw });
    else if (m[5]) out.push({ kind: "slash", at, text: raw });
    else if (raw !== ".") out.push({ kind: "unknown", at, text: raw });
  }
  return out;
}

function number(digits: string, at: number, out: Token[]): void {
  if (digits.length <= 2) {
    out.push({ kind: "day", value: Number(digits), at, text: digits });
    return;
  }
  if (digits.length === 4) {
    const hh = Number(digits.slice(0, 2));
    const mm = Number(digits.slice(2));
    if (mm < 60 && (hh < 24 || (hh === 24 && mm === 0))) {
      out.push({ kind: "time", value: hh * 60 + mm, at, text: digits });
      return;
    }
  }
  out.push({ kind: "unknown", at, text: digits });
}

function word(w: string, at: number, out: Token[], text: string, re: RegExp): void {
  const month = MONTHS.indexOf(w.slice(0, 3) as (typeof MONTHS)[number]);
  if (month >= 0 && isMonthWord(w)) return void out.push({ kind: "month", value: month, at, text: w });
  const weekday = WEEKDAYS.indexOf(w.slice(0, 3) as (typeof WEEKDAYS)[number]);
  if (weekday >= 0 && isWeekdayWord(w)) return void out.push({ kind: "weekday", value: weekday, at, text: w });
  switch (w) {
    case "SR":
    case "SS":
      return void out.push({ kind: "sun", value: w, at, text: w });
    case "PLUS":
    case "MINUS": {
      // PLUS30, PLUS 30, MINUS 1HR is not seen in real data: minutes only
      const n = /^\s*(\d{1,3})/.exec(text.slice(at + w.length));
      if (!n?.[1]) return void out.push({ kind: "unknown", at, text: w });
      re.lastIndex = at + w.length + n[0].length;
      const sign = w === "PLUS" ? 1 : -1;
      return void out.push({ kind: "offset", value: sign * Number(n[1]), at, text: text.slice(at, re.lastIndex) });
    }
    case "DAILY":
    case "DLY":
      return void out.push({ kind: "word", value: "DAILY", at, text: w });
    case "H": {
      // H24 arrives as H + 24
      if (text.startsWith("24", at + 1)) {
        re.lastIndex = at + 3;
        return void out.push({ kind: "word", value: "H24", at, text: "H24" });
      }
      break;
    }
    case "HJ":
    case "HN":
    case "EXC":
    case "EVERY":
    case "AND":
    case "TO":
      return void out.push({ kind: "word", value: w, at, text: w });
    case "EXCEPT":
      return void out.push({ kind: "word", value: "EXC", at, text: w });
  }
  out.push({ kind: UNSUPPORTED.has(w) ? "unsupported" : "unknown", at, text: w });
}

const MONTH_WORDS =
  /^(JAN(UARY)?|FEB(RUARY)?|MAR(CH)?|APR(IL)?|MAY|JUNE?|JULY?|AUG(UST)?|SEP(T|TEMBER)?|OCT(OBER)?|NOV(EMBER)?|DEC(EMBER)?)$/;
const WEEKDAY_WORDS = /^(MON(DAY)?|TUE(S|SDAY)?|WED(NESDAY)?|THU(R|RS|RSDAY)?|FRI(DAY)?|SAT(URDAY)?|SUN(DAY)?)$/;
const isMonthWord = (w: string) => MONTH_WORDS.test(w);
const isWeekdayWord = (w: string) => WEEKDAY_WORDS.test(w);
