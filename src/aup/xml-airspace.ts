// One parsed `aixm:Airspace` feature to AUP allocations: every `aixm:AirspaceActivation` of its time slices, one
// allocation per (interval of its timesheets inside validTime) × (layer of its levels). A slice without activation
// (the BASELINE static definition) gives nothing. Levels come from the activation's `aixm:levels/aixm:AirspaceLayer`,
// else from the slice's own `aixm:AirspaceVolume` (a TEMPDELTA that changes the limits, DONLON `changed_limits`).
import type { AupAllocation } from "../model/aup.js";
import type { VerticalLimit } from "../model/contract.js";
import type { Diagnostic, Severity } from "../model/diagnostic.js";
import { LimitUnit, ReferenceDatum } from "../model/vocab.js";
import {
  attr,
  aupDayOf,
  aupDayStart,
  code,
  DAY,
  field,
  isElement,
  iso,
  list,
  parseInstant,
  text,
  uuidKey,
} from "./xml-node.js";
import { expandTimesheets, type Report, type Span } from "./xml-timesheet.js";

export interface AirspaceAt {
  source: string;
  /** 0-based index of the Airspace element in the message. */
  record: number;
  /** 1-based line of its start tag. */
  line: number;
  /** Event uuid → event name (`EAR2_20180510`), for Digital NOTAMs whose Airspace has no designator. */
  eventNames: ReadonlyMap<string, string>;
}

export interface AirspaceResult {
  allocations: AupAllocation[];
  diagnostics: Diagnostic[];
}

const INTERPRETATIONS = ["BASELINE", "TEMPDELTA", "PERMDELTA", "SNAPSHOT"];

type Level = { text: string; limit?: VerticalLimit };

const FEET: Record<number, number> = { [LimitUnit.METER]: 3.28084, [LimitUnit.FEET]: 1, [LimitUnit.FLIGHT_LEVEL]: 100 };
const DATUMS: Record<string, VerticalLimit["referenceDatum"]> = {
  SFC: ReferenceDatum.GND,
  MSL: ReferenceDatum.MSL,
  W84: ReferenceDatum.MSL,
  STD: ReferenceDatum.STD,
};

/** `<aixm:upperLimit uom="FL">250</aixm:upperLimit><aixm:upperLimitReference>STD</…>` → `FL250`, FL 250 STD. */
function readLevel(layer: unknown, which: "upper" | "lower", report: Report): Level {
  const node = field(layer, `${which}Limit`);
  const value = (text(node) ?? "").toUpperCase();
  const uom = (attr(node, "uom") ?? "").toUpperCase();
  const reference = code(layer, `${which}LimitReference`);
  if (value === "") return { text: "" };
  if (value === "GND" || value === "SFC") return { text: "GND", limit: { value: 0, unit: 1, referenceDatum: 0 } };
  if (value === "UNL") return { text: "UNL", limit: { value: 999, unit: 6, referenceDatum: 2 } };
  const shown = uom === "FL" ? `FL${value}` : [value, uom, reference].filter((s) => s !== "").join(" ");
  const unit =
    uom === "FL" ? LimitUnit.FLIGHT_LEVEL : uom === "FT" ? LimitUnit.FEET : uom === "M" ? LimitUnit.METER : undefined;
  const datum = uom === "FL" ? ReferenceDatum.STD : DATUMS[reference];
  if (!/^-?\d+(\.\d+)?$/.test(value) || unit === undefined || datum === undefined) {
    report("aup.levels.unparsed", "warning", `${which}Limit "${shown}" not understood; kept as text only`);
    return { text: shown };
  }
  return { text: shown, limit: { value: Number(value), unit, referenceDatum: datum } };
}

/** Lower and upper of one layer; a lower above the upper is reported and kept as written. */
function readLayer(layer: unknown, report: Report): { lower: Level; upper: Level } {
  const upper = readLevel(layer, "upper", report);
  const lower = readLevel(layer, "lower", report);
  const [lo, hi] = [lower.limit, upper.limit];
  // ground-referenced heights compare only with each other; altitudes and flight levels compare by feet
  if (lo && hi && (lo.referenceDatum === 0) === (hi.referenceDatum === 0)) {
    if (lo.value * (FEET[lo.unit] ?? 1) > hi.value * (FEET[hi.unit] ?? 1)) {
      report("aup.levels.inverted", "warning", `lower ${lower.text} is above upper ${upper.text}; kept as written`);
    }
  }
  return { lower, upper };
}

function layersOf(activation: unknown, slice: unknown): unknown[] {
  const layers = list(field(activation, "levels")).map((l) => field(l, "AirspaceLayer"));
  if (layers.some(isElement)) return layers.filter(isElement);
  const volumes = list(field(slice, "geometryComponent")).map((g) =>
    field(field(field(g, "AirspaceGeometryComponent"), "theAirspaceVolume"), "AirspaceVolume"),
  );
  return volumes.filter((v) => isElement(v) && (field(v, "upperLimit") ?? field(v, "lowerLimit")) !== undefined);
}

/** Remarks: `aixm:annotation/aixm:Note/aixm:translatedNote/aixm:LinguisticNote/aixm:note`, joined. */
const remarkOf = (activation: unknown): string =>
  list(field(activation, "annotation"))
    .flatMap((a) => list(field(field(a, "Note"), "translatedNote")))
    .map((t) => text(field(field(t, "LinguisticNote"), "note")) ?? "")
    .filter((s) => s !== "")
    .join(" / ");

/** The event a Digital NOTAM slice belongs to: `aixm:extension/*:AirspaceExtension/*:theEvent/@xlink:href`. */
function eventRef(slice: unknown): string | undefined {
  for (const extension of list(field(slice, "extension"))) {
    if (!isElement(extension)) continue;
    for (const child of Object.values(extension)) {
      const href = attr(field(child, "theEvent"), "href");
      if (href) return uuidKey(href);
    }
  }
  return undefined;
}

/** validTime of a slice; an open end (`indeterminatePosition="unknown"`) ends with the AUP day. */
function periodOf(slice: unknown, report: Report): Span | undefined {
  const period = field(field(slice, "validTime"), "TimePeriod");
  const beginText = text(field(period, "beginPosition")) ?? "";
  const endNode = field(period, "endPosition");
  const endText = text(endNode) ?? "";
  const start = parseInstant(beginText);
  if (start === undefined) {
    report("aup.time.invalid", "skipped", `beginPosition "${beginText}" is not a date-time; slice not read`);
    return undefined;
  }
  let end = parseInstant(endText);
  if (endText === "") {
    end = aupDayStart(aupDayOf(start)) + DAY;
    const how = attr(endNode, "indeterminatePosition") ?? (endNode === undefined ? "missing" : "empty");
    report("aup.time.openEnd", "repaired", `endPosition ${how}; ends with the AUP day at ${iso(end)}`);
  }
  if (end === undefined) {
    report("aup.time.invalid", "skipped", `endPosition "${endText}" is not a date-time; slice not read`);
    return undefined;
  }
  if (end <= start) {
    report("aup.time.empty", "skipped", `endPosition "${endText}" is not after beginPosition "${beginText}"`);
    return undefined;
  }
  return { start, end };
}

export function readAirspace(node: unknown, at: AirspaceAt): AirspaceResult {
  const diagnostics: Diagnostic[] = [];
  const allocations: AupAllocation[] = [];
  const id = attr(node, "id");
  const slices = list(field(node, "timeSlice")).map((t) => field(t, "AirspaceTimeSlice"));
  const activationsOf = (slice: unknown) => list(field(slice, "activation")).map((a) => field(a, "AirspaceActivation"));
  const active = slices.filter((s) => activationsOf(s).some(isElement));
  let designator = slices.map((s) => text(field(s, "designator")) ?? "").find((d) => d !== "");
  const report: Report = (key: string, severity: Severity, message: string) => {
    const known = { ...(id ? { id } : {}), ...(designator ? { name: designator } : {}) };
    diagnostics.push({ code: key, severity, message, source: at.source, record: at.record, line: at.line, ...known });
  };
  if (active.length === 0) return { allocations, diagnostics };
  if (designator === undefined) {
    const ref = active.map(eventRef).find((r) => r !== undefined);
    const event = ref === undefined ? undefined : at.eventNames.get(ref);
    designator = event?.split("_")[0]?.trim() || undefined;
    if (designator === undefined) {
      report("aup.activation.noDesignator", "skipped", "Airspace with activations but no aixm:designator");
      return { allocations, diagnostics };
    }
    report(
      "aup.activation.designatorFromEvent",
      "repaired",
      `no aixm:designator; "${designator}" from event "${event}"`,
    );
  }
  for (const slice of active) {
    const interpretation = code(slice, "interpretation");
    if (!INTERPRETATIONS.includes(interpretation)) {
      report("aup.activation.interpretation", "warning", `interpretation "${interpretation}" unknown; read anyway`);
    }
    const period = periodOf(slice, report);
    if (!period) continue;
    for (const activation of activationsOf(slice).filter(isElement)) {
      let status = code(activation, "status");
      if (status === "") {
        status = "ACTIVE";
        report("aup.activation.statusMissing", "repaired", "AirspaceActivation without aixm:status; read as ACTIVE");
      }
      const sheets = list(field(activation, "timeInterval")).map((t) => field(t, "Timesheet"));
      const spans = expandTimesheets(sheets.filter(isElement), period, report);
      if (spans.length === 0) {
        const within = `${iso(period.start)}–${iso(period.end)}`;
        report("aup.activation.noInterval", "skipped", `${status} activation has no interval within ${within}`);
        continue;
      }
      const layers = layersOf(activation, slice).map((l) => readLayer(l, report));
      const remark = remarkOf(activation);
      for (const { lower, upper } of layers.length > 0 ? layers : [{ lower: { text: "" }, upper: { text: "" } }]) {
        for (const { start, end } of spans) {
          allocations.push({
            designator,
            status,
            start,
            end,
            lowerText: lower.text,
            upperText: upper.text,
            ...(lower.limit ? { lower: lower.limit } : {}),
            ...(upper.limit ? { upper: upper.limit } : {}),
            ...(remark ? { remark } : {}),
            origin: { source: at.source, record: at.record, line: at.line },
          });
        }
      }
    }
  }
  return { allocations, diagnostics };
}
