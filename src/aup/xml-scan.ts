// The AUP messages' own scans (src/ingest/xml.ts has the generic ones): event names of a Digital NOTAM message,
// the plan header's leaf values.
import { elements, leaf } from "../ingest/xml.js";
import type { PlanKind } from "../model/aup.js";
import { aupDayOf, parseInstant, uuidKey } from "./xml-node.js";

/** Event uuid → name (`EAR2_20180510`), from the `event:Event` members of a Digital NOTAM message. */
export function eventNames(xml: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const e of elements(xml, "Event")) {
    const id = /\bid="([^"]*)"/.exec(xml.slice(e.start, e.openEnd))?.[1];
    const name = e.close && leaf(xml.slice(e.openEnd, e.close.start), "name");
    if (id && name) names.set(uuidKey(id), name);
  }
  return names;
}

export interface Header {
  day: string | undefined;
  kind: PlanKind;
  issued: number | undefined;
}

/** Plan header: AUP day, kind and issue time, from what is left once the Airspace elements are cut out. */
export function readHeader(envelope: string, root: string): Header {
  const chain = leaf(envelope, "chainDate") ?? "";
  const wef = parseInstant(leaf(envelope, "wef") ?? "");
  const day = /^\d{4}-\d{2}-\d{2}$/.test(chain) ? chain : wef === undefined ? undefined : aupDayOf(wef);
  // EAUP chain: sequence 1 is the EAUP, later ones are EUUPs; per-AMC AUPs say aupType UPDATE.
  const id = elements(envelope, "eaupId")[0];
  const eaupId = id?.close ? envelope.slice(id.openEnd, id.close.start) : "";
  const uup =
    Number(leaf(eaupId, "sequenceNumber") ?? "1") > 1 ||
    (leaf(envelope, "aupType") ?? "").toUpperCase() === "UPDATE" ||
    /UUP/i.test(root) ||
    />\s*E?UUP\s*</i.test(envelope);
  const issued = ["releaseTime", "timePosition", "creationTime"]
    .map((name) => parseInstant(leaf(envelope, name) ?? ""))
    .find((t) => t !== undefined);
  return { day, kind: uup ? "UUP" : "AUP", issued };
}
