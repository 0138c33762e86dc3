// Why one feature of the live version has its state, for the map page's popup (issue 17 §1): the `rule` and
// `because` that `airspace-publisher explain` prints, from the version's internal explanations. Only those two
// fields leave the origin: the document's source names are paths and URLs. One version is held in memory.
import type { ExplainDocument, Explanation } from "../model/explain.js";
import { readExplanations } from "../publish/explanations.js";
import type { ObjectStore } from "../store/store.js";

/** What leaves the origin of one explanation: its row and sentence, never its evidence. */
export type FeatureWhy = { version: string; id: string } & Pick<Explanation, "rule" | "because" | "conditionalOn">;

export class ExplainView {
  private held: { version: string; doc: Promise<ExplainDocument | undefined> } | undefined;

  constructor(private readonly store: ObjectStore) {}

  /** The feature's explanation in `version`; undefined when the version stored none or lacks the feature. */
  async of(version: string, id: string): Promise<FeatureWhy | undefined> {
    let held = this.held;
    if (held?.version !== version) {
      const fresh = { version, doc: readExplanations(this.store, version) };
      // a failed read is tried again on the next request, not remembered
      fresh.doc.catch(() => {
        if (this.held === fresh) this.held = undefined;
      });
      held = this.held = fresh;
    }
    const features = (await held.doc)?.features;
    const e = features && Object.hasOwn(features, id) ? features[id] : undefined;
    if (!e) return undefined;
    const why = { version, id, rule: e.rule, because: e.because };
    return e.conditionalOn ? { ...why, conditionalOn: e.conditionalOn } : why;
  }
}
