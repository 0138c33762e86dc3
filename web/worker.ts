// The map page's details worker: fetches a country's GeoJSON answer when a popup first asks for one of its
// features, parses it off the page's thread, and keeps the last few answers' properties by feature id.
import type { Feature, FeatureCollection } from "../src/model/contract.js";
import type { FromWorker, ToWorker } from "./messages.js";

type Collection = { version: string; byId: Map<string, Feature["properties"]> };
/** Answers kept: a popup in a country already opened answers at once. */
const KEPT = 4;
const answers = new Map<string, Promise<Collection>>();

async function collection(url: string, token: string): Promise<Collection> {
  const r = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  if (!r.ok) throw new Error(`the origin answered ${r.status} ${r.statusText}`);
  const fc = (await r.json()) as FeatureCollection;
  return {
    version: r.headers.get("X-Data-Version") ?? "?",
    byId: new Map(fc.features.map((f) => [f.properties._id, f.properties])),
  };
}

addEventListener("message", async (event: MessageEvent<ToWorker>) => {
  const m = event.data;
  const key = `${m.token}|${m.version}|${m.url}`;
  let answer = answers.get(key);
  if (!answer) {
    answer = collection(m.url, m.token);
    answer.catch(() => answers.delete(key));
    answers.set(key, answer);
    if (answers.size > KEPT) answers.delete(answers.keys().next().value!);
  }
  let reply: FromWorker;
  try {
    const { version, byId } = await answer;
    const properties = byId.get(m.id);
    reply = properties
      ? { kind: "properties", ask: m.ask, properties, version }
      : { kind: "properties", ask: m.ask, version, error: `${m.id} is not in version ${version}` };
  } catch (error) {
    reply = { kind: "properties", ask: m.ask, error: error instanceof Error ? error.message : String(error) };
  }
  postMessage(reply);
});
