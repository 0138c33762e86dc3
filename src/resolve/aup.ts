// AUP/UUP for one UTC day (docs/design.md §3): the latest plan of AUP day D-1 covers 00:00–06:00, the latest plan
// of AUP day D covers 06:00–24:00 (a UUP replaces its AUP). Allocations are linked to airspaces by the
// designator normaliser of the NOTAMs, dropping a flight-plan-buffer `Z` only when the base designator exists.
import type { AupAllocation, AupPlan } from "../model/aup.js";
import { clipToDay, type UtcDay } from "../model/time.js";
import type { NormalizedAirspace } from "../normalize/airspace.js";
import type { AirspaceLinker } from "./link.js";

export interface DayAllocation extends AupAllocation {
  /** The allocation clipped to the UTC day and to its plan's part of it. */
  spans: Array<[number, number]>;
  plan: { aupDay: string; kind: string; source: string };
  /** Linked to the area a `Z` buffer zone surrounds, the file holding no volume of the buffer's own (`asBuffer`). */
  asBuffer?: true;
}

export interface AupDay {
  /** Linked allocations per airspace id. */
  linked: Map<string, DayAllocation[]>;
  /** Normalised designators of every allocation in every plan: AMC-manageable airspaces. */
  designators: Set<string>;
  /** Whether plans cover each part of the day: 00:00–06:00 (AUP day D-1) and 06:00–24:00 (AUP day D). */
  covered: { early: boolean; late: boolean };
  allocations: number;
  linkedCount: number;
  /** Linked allocations per country of the airspace. */
  perCountry: Record<string, number>;
  unlinked: Record<string, number>;
}

const SIX_HOURS = 6 * 3_600_000;

export function aupForDay(plans: readonly AupPlan[], day: UtcDay, linker: AirspaceLinker): AupDay {
  const latest = new Map<string, AupPlan>();
  for (const p of plans) {
    const cur = latest.get(p.aupDay);
    if (!cur || p.issued > cur.issued || (p.issued === cur.issued && p.kind === "UUP")) latest.set(p.aupDay, p);
  }
  const prev = new Date(day.start - 86_400_000).toISOString().slice(0, 10);
  const parts = [
    { plan: latest.get(prev), from: day.start, to: day.start + SIX_HOURS },
    { plan: latest.get(day.date), from: day.start + SIX_HOURS, to: day.end },
  ];
  const designators = new Set<string>();
  for (const p of plans)
    for (const a of p.allocations) for (const d of linker.designatorsOf(a.designator)) designators.add(d);
  const linked = new Map<string, DayAllocation[]>();
  const perCountry: Record<string, number> = {};
  const unlinked: Record<string, number> = {};
  let allocations = 0;
  let linkedCount = 0;
  for (const { plan, from, to } of parts) {
    for (const a of plan?.allocations ?? []) {
      const clipped = clipToDay([Math.max(a.start, from), Math.min(a.end, to)], day);
      if (!clipped || clipped[0] >= clipped[1]) continue;
      allocations++;
      const { airspaces, asBuffer } = allocationLinks(a.designator, linker);
      if (airspaces.length === 0) {
        unlinked[a.designator] = (unlinked[a.designator] ?? 0) + 1;
        continue;
      }
      linkedCount++;
      const entry: DayAllocation = {
        ...a,
        spans: [clipped as [number, number]],
        plan: { aupDay: plan!.aupDay, kind: plan!.kind, source: plan!.source },
        ...(asBuffer ? { asBuffer } : {}),
      };
      for (const s of airspaces) {
        linked.set(s.id, [...(linked.get(s.id) ?? []), entry]);
        perCountry[s.country] = (perCountry[s.country] ?? 0) + 1;
      }
    }
  }
  return {
    linked,
    designators,
    covered: { early: parts[0]!.plan !== undefined, late: parts[1]!.plan !== undefined },
    allocations,
    linkedCount,
    perCountry,
    unlinked,
  };
}

/** The airspaces an allocation names; `LFTSA5Z` falls back to `LFTSA5` only when no airspace is `LFTSA5Z`. */
export function linkAllocation(designator: string, linker: AirspaceLinker): NormalizedAirspace[] {
  return allocationLinks(designator, linker).airspaces;
}

/**
 * The airspaces an allocation names, and whether they are the area a buffer zone surrounds (`asBuffer`): a `Z`
 * allocation (`EDR10AZ`, `EPTR501Z`) links the buffer's own volume where the file holds one, else the area it buffers
 * (Germany's plans name only the buffers: the area is in use). Linked as a buffer, the area is active for the
 * allocation's times but keeps its own limits: the buffer's levels are the buffer's, wider than the area's.
 */
export function allocationLinks(
  designator: string,
  linker: AirspaceLinker,
): { airspaces: NormalizedAirspace[]; asBuffer: boolean } {
  const direct = linker.byDesignator(designator);
  if (direct.length > 0 || !designator.endsWith("Z")) return { airspaces: direct, asBuffer: false };
  const area = linker.byDesignator(designator.slice(0, -1));
  return { airspaces: area, asBuffer: area.length > 0 };
}
