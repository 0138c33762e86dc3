// A FeatureCollection's JSON text as the service publishes it: `{"type":"FeatureCollection","features":[…],"meta":…}`,
// each feature the JSON.stringify of its object, sorted by `_id`. Pure (no Node module): the publisher's change sets
// (publish/changes.ts) and the client (src/client) split and join collections with it.

/**
 * The features of a collection's JSON text as published (`{"type":"FeatureCollection","features":[…],"meta":…}`), each
 * as its own text. Split where one feature ends and the next begins (`},{"type":"Feature",`): inside a JSON string a
 * quote is escaped, so that sequence is never part of one (a native search: 40 MB in tens of milliseconds).
 */
export function featureTexts(collection: string): string[] {
  const head = '{"type":"FeatureCollection","features":[';
  if (!collection.startsWith(head)) throw new Error("not a FeatureCollection as published: no features array first");
  const end = collection.lastIndexOf('],"meta":');
  if (end < head.length) throw new Error("not a FeatureCollection as published: its features array does not end");
  const out: string[] = [];
  if (end === head.length) return out;
  const sep = '},{"type":"Feature",';
  let start = head.length;
  for (let at = collection.indexOf(sep, start); at >= 0 && at < end; at = collection.indexOf(sep, start)) {
    out.push(collection.slice(start, at + 1));
    start = at + 2;
  }
  out.push(collection.slice(start, end));
  return out;
}

/** A feature text's `_id` (the first `"_id"` key: geometry has none). */
export function idOfText(text: string): string {
  const at = text.indexOf('"_id":"');
  if (at < 0) throw new Error("a feature without _id");
  let end = at + 7;
  while (text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
  return JSON.parse(text.slice(at + 6, end + 1)) as string;
}
