// The words of the map page: a feature's popup (type as pilots say it, limits as the source wrote them, the status
// with its reason, today's intervals, frequencies, remarks, linked NOTAMs and AUP rows) and the legend.
import type { Feature } from "../src/model/contract.js";
import { AIRSPACE_TYPE_NAMES } from "../src/model/vocab.js";
import { PALETTE } from "../src/resolve/style.js";
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

/** The legend, from the pipeline's palette: one colour changes in one place only. */
export function legend(): HTMLElement[] {
  return [
    ...Object.values(PALETTE).map((p) => {
      const li = document.createElement("li");
      const sw = document.createElement("span");
      sw.className = "swatch";
      const [r, g, b] = p.rgb;
      sw.style.background = `rgba(${r}, ${g}, ${b}, ${Math.max(p.fillOpacity, 0.05)})`;
      sw.style.borderColor = `rgb(${r}, ${g}, ${b})`;
      if (p.lineDasharray.length) sw.style.borderStyle = "dashed";
      li.append(sw, p.label);
      return li;
    }),
    ...[
      ["May be active: no fresh source says (dotted outline)", "dotted"],
      ["Active by default: nothing says when (long dashes)", "dashed"],
      ["Not active today (faded; active at the chosen time: stronger fill)", "solid"],
    ].map(([label, style]) => {
      const li = document.createElement("li");
      const sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.borderStyle = style!;
      sw.style.borderColor = style === "solid" ? "rgba(82,82,91,0.4)" : "#52525b";
      li.append(sw, label!);
      return li;
    }),
  ];
}
