// Evidence or default (issue 50 §5): whether an airspace's answer rests on something that says when it is active
// (AIP hours, a NOTAM, the AUP, a validity window, a kind active whenever it exists) or only on a rule's default:
// `other` (no activation rule applies: Yes all day), `hoursUnknown` (HX, unpublished times), `conditionalUnknown`
// (its sources missing, stale or off-region). Counted per country in the manifest, the run report and `make run`.
import type { Feature } from "../model/contract.js";
import type { Explanation } from "../model/explain.js";
import type { Decided } from "../model/manifest.js";
import type { Activity } from "./activity.js";

/** The decision-table rows that decide by default. */
export const DEFAULT_RULES: ReadonlySet<Activity["rule"]> = new Set(["other", "hoursUnknown", "conditionalUnknown"]);

export const isDefaultRule = (rule: string): boolean => DEFAULT_RULES.has(rule as Activity["rule"]);

/** Per country, its airspaces (graphical NOTAMs are evidence themselves and not counted) by evidence and by default. */
export function decidedByCountry(
  features: readonly Feature[],
  explanations: ReadonlyMap<string, Pick<Explanation, "rule">>,
): Map<string, Decided> {
  const out = new Map<string, Decided>();
  for (const f of features) {
    const p = f.properties;
    if (p.featureCategory !== "airspace") continue;
    const d = out.get(p.country) ?? { evidence: 0, default: 0 };
    out.set(p.country, d);
    const rule = explanations.get(p._id)?.rule;
    if (rule !== undefined && isDefaultRule(rule)) d.default++;
    else d.evidence++;
  }
  return out;
}
