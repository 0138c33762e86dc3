// biome-ignore-all lint/suspicious/noExplicitAny: the cases mutate deep paths of a feature's JSON
import { describe, expect, it } from "vitest";
import { validateCollection, validateFeature } from "../../src/publish/validate.js";
import { feature } from "./fixtures.js";

const good = () => structuredClone(feature("a1", "DE", 8)) as unknown as Record<string, any>;
const codes = (f: unknown) => validateFeature(f).map((v) => v.code);

describe("validateFeature", () => {
  it("accepts a feature built by the resolver", () => expect(validateFeature(good())).toEqual([]));

  it.each([
    ["an unclosed ring", (f: any) => f.geometry.coordinates[0].pop(), "rfc7946.ringNotClosed"],
    ["a clockwise exterior", (f: any) => f.geometry.coordinates[0].reverse(), "rfc7946.winding"],
    ["a latitude out of range", (f: any) => (f.geometry.coordinates[0][1] = [8, 95]), "contract.geometry"],
    ["a Point geometry", (f: any) => (f.geometry = { type: "Point", coordinates: [8, 50] }), "contract.geometry"],
    [
      "an unknown activationType",
      (f: any) => (f.properties.vendor.dynamicAirspaceMapping.activationType = "maybe"),
      "contract.schema",
    ],
    [
      "type 99 as airspace",
      (f: any) => {
        f.properties.type = 99;
        f.properties.vendor.VendorType = "99";
      },
      "contract.category",
    ],
    ["a VendorType that is not the type", (f: any) => (f.properties.vendor.VendorType = "4"), "contract.schema"],
    [
      "alias spellings that differ",
      (f: any) => (f.properties.vendor.dynamicAirspaceMapping.dynamicStyle.Priority = 1),
      "contract.styleAlias",
    ],
    [
      "an interval ending before it starts",
      (f: any) => {
        const t = f.properties.vendor.dynamicAirspaceMapping.airspaceActivationTimes[0];
        [t.start, t.end] = [t.end, t.start];
      },
      "contract.interval",
    ],
    [
      "Yes without an interval",
      (f: any) => (f.properties.vendor.dynamicAirspaceMapping.airspaceActivationTimes = []),
      "contract.activeWithoutInterval",
    ],
    ["an unknown property", (f: any) => (f.properties.colour = "red"), "contract.schema"],
    ["a lower-case country", (f: any) => (f.properties.country = "de"), "contract.schema"],
    ["obstacle facets on an airspace", (f: any) => (f.properties.iscraneobstacle = 1), "contract.facets"],
  ])("reports %s", (_, mutate, code) => {
    const f = good();
    mutate(f);
    expect(codes(f)).toContain(code);
  });
});

describe("validateCollection", () => {
  const fc = (features: unknown[], count?: object) => ({
    type: "FeatureCollection",
    features,
    meta: {
      count: count ?? { airspaces: features.length, airspaceNotams: 0, graphicalNotams: 0, total: features.length },
      tier: "dynamic",
    },
  });

  it("accepts a consistent collection", () =>
    expect(validateCollection(fc([good(), feature("a2", "DE", 9)]))).toEqual([]));

  it("reports wrong counts, repeated ids and a missing meta", () => {
    expect(
      validateCollection(fc([good()], { airspaces: 2, airspaceNotams: 0, graphicalNotams: 0, total: 2 })).map(
        (v) => v.code,
      ),
    ).toEqual(["contract.count", "contract.count"]);
    expect(validateCollection(fc([good(), good()])).map((v) => v.code)).toEqual(["contract.duplicateId"]);
    expect(validateCollection({ type: "FeatureCollection", features: [] }).map((v) => v.code)).toContain(
      "contract.collection",
    );
    expect(validateCollection("nope").map((v) => v.code)).toEqual(["contract.collection"]);
  });
});
