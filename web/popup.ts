// The words of the map page: a feature's popup (type as pilots say it, limits as the source wrote them, the status
// with its reason, today's intervals, frequencies, remarks, linked NOTAMs and AUP rows), without the DOM: tested in
// Node (test/resolve/notam-geometry-stage.test.ts) and in Chromium (test/web/map.test.ts).
import type { Feature } from "../src/model/contract.js";
import { AIRSPACE_TYPE_NAMES } from "../src/model/vocab.js";
import { formatFrequencies, formatInterval, formatLimit, intervalsOf, limitsAt, statusText } from "./logic.js";

export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * A feature's popup: what a pilot asks of it, in words, at `instant` of `day` (UTC); the status's reason is
 * `because` (the one `explain` gives) when known, else the page's own from the activation type.
 */
export function popup(f: Pick<Feature, "properties">, day: string, instant: number, because?: string): string {
  const p = f.properties;
  const m = p.vendor.dynamicAirspaceMapping;
  const temp = limitsAt(f, instant);
  const cls = p.icaoClass === undefined ? undefined : ("ABCDEFG"[p.icaoClass] ?? "unclassified");
  const rows: [string, string][] = [
    ["Type", esc(AIRSPACE_TYPE_NAMES[p.type] ?? `type ${p.type}`)],
    ...(cls ? [["Class", cls] as [string, string]] : []),
    ["Limits", `${esc(p.vendor.formattedLowerLimit)} – ${esc(p.vendor.formattedUpperLimit)}`],
    ["Status", `<span class="status"${because ? ' data-from="explain"' : ""}>${esc(statusText(f, because))}</span>`],
    ["Today", [...new Set(intervalsOf(f).map((i) => `${formatInterval(i, day)} UTC`))].join(", ") || "not active"],
  ];
  if (temp) {
    const lo = temp.lower ? formatLimit(temp.lower) : "–";
    const hi = temp.upper ? formatLimit(temp.upper) : "–";
    rows.push(["Now", `${lo} – ${hi}`]);
  }
  const frequencies = formatFrequencies(p.frequencies);
  if (frequencies.length > 0) rows.push(["Frequencies", frequencies.map(esc).join("<br>")]);
  // said, not left out: a pilot must not read a missing row as "no one to call"
  else if (p.featureCategory === "airspace") rows.push(["Frequencies", "none in the source data: see the AIP"]);
  if (p.remarks) rows.push(["Remarks", esc(p.remarks)]);
  const notams = m.notams
    .map(
      (n) =>
        `<div class="notam" data-notam="${esc(n.NotamId)}"><b>NOTAM ${esc(n.NotamId)}</b>` +
        `${n.ItemD ? `<br>D) ${esc(n.ItemD)}` : ""}${n.ItemE ? `<br>E) ${esc(n.ItemE)}` : ""}</div>`,
    )
    .join("");
  const aup = m.aupuups
    .map(
      (a) =>
        `<div class="notam" data-aup="${esc(a.Designator)}">AUP ${esc(a.Designator)} ${esc(a.Status)} ` +
        `${esc(formatInterval({ start: a.StartDT, end: a.EndDT }, day))} UTC ${esc(a.LowerAlt)}–${esc(a.UpperAlt)}</div>`,
    )
    .join("");
  return `<div class="popup"><h3>${esc(p.name)}</h3><table>${rows.map(([k, v]) => `<tr><td>${k}</td><td>${v}</td></tr>`).join("")}</table>${notams}${aup}</div>`;
}
