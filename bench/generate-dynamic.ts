// Dynamic inputs for the Europe-scale benchmark: 40 000 NOTAMs (the real corpus of ../shared/data/notam,
// repeated with new numbers) moved so that their validity meets the benchmark day, and 2 000 real AUP rows
// as the plan of that day.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";

const DAY_MS = 86_400_000;

/** YYMMDDhhmm shifted by whole days. */
function shift(stamp: string, days: number): string {
  const m = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(.*)$/.exec(stamp.trim());
  if (!m) return stamp;
  const d = new Date(
    Date.UTC(2000 + Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])) + days * DAY_MS,
  );
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${m[6]}`;
}

export function generateNotams(
  shared: string,
  outDir: string,
  date: string,
  target = 40_000,
): { file: string; count: number } {
  const dir = path.join(shared, "notam");
  const records: Array<Record<string, unknown>> = [];
  for (const f of readdirSync(dir).sort()) {
    if (!/\.jsonl(\.gz)?$/.test(f) || f.startsWith("itemD_")) continue;
    const bytes = readFileSync(path.join(dir, f));
    const text = (f.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
    for (const line of text.split("\n")) if (line.trim()) records.push(JSON.parse(line));
  }
  const day = Date.parse(`${date}T00:00:00Z`) / DAY_MS;
  const out: string[] = [];
  for (let i = 0; out.length < target; i++) {
    const r = { ...records[i % records.length]! };
    const round = Math.floor(i / records.length);
    const b = typeof r.itemB === "string" ? r.itemB : undefined;
    if (!b || typeof r.id !== "string") continue;
    const bDay = Date.UTC(2000 + Number(b.slice(0, 2)), Number(b.slice(2, 4)) - 1, Number(b.slice(4, 6))) / DAY_MS;
    const days = day - bDay;
    r.itemB = shift(b, days);
    if (typeof r.itemC === "string" && r.itemC !== "PERM") r.itemC = shift(r.itemC, days);
    // later rounds are other NOTAMs: a series letter of their own, and no cross references
    if (round > 0) {
      r.id = `${String.fromCharCode(75 + round)}${String(r.id).slice(1)}`;
      r.ref = null;
      r.type = "N";
    }
    delete r.raw;
    delete r.raw_reconstructed;
    out.push(JSON.stringify(r));
  }
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, "notams.jsonl");
  writeFileSync(file, `${out.join("\n")}\n`);
  return { file, count: out.length };
}

export function generateAup(
  shared: string,
  outDir: string,
  date: string,
  target = 2_000,
): { file: string; count: number } {
  const dir = path.join(shared, "aup", "vlara_eaup_rsa_csv");
  const rows: string[] = [];
  for (const f of readdirSync(dir).sort()) {
    const lines = readFileSync(path.join(dir, f), "utf8")
      .replace(/^\uFEFF/, "")
      .split(/\r?\n/);
    const header = lines.findIndex((l) => l.includes("RSA,NOTAM,REMARK"));
    const extra = lines[header]!.startsWith(",");
    for (const l of lines.slice(header + 1)) if (l.trim()) rows.push(extra ? l.slice(1) : l);
  }
  const body = rows.slice(0, target);
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `eaup_rsa_${date}T0700Z.csv`);
  writeFileSync(file, `RSA,NOTAM,REMARK,MNM FL,MAX FL,WEF,UNT,FUA/EU RS,FIR,UIR\n${body.join("\n")}\n`);
  return { file, count: body.length };
}
