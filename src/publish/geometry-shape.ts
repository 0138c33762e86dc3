// The shape of a published geometry (the contract's AreaGeometry: a Polygon or MultiPolygon of rings of ≥ 4 [lon,
// lat] pairs in range, no other members), checked by hand. Kept by measurement: on the Europe benchmark's 48 402
// published features zod's check of the same schema takes 655–1 347 ms, this one 58–68 ms, the rest of the contract
// check ~1.2 s (bench/publish.ts prints both checks). test/publish/geometry-shape.test.ts holds it to zod's answers.

export interface ShapeIssue {
  path: Array<string | number>;
  message: string;
}

/** The first way `g` is not an AreaGeometry, or undefined when it is one. */
export function areaGeometryIssue(g: unknown): ShapeIssue | undefined {
  if (typeof g !== "object" || g === null || Array.isArray(g)) return { path: [], message: "not an object" };
  const o = g as Record<string, unknown>;
  for (const k in o) if (k !== "type" && k !== "coordinates") return { path: [], message: `unknown member "${k}"` };
  if (o.type === "Polygon") return polygon(o.coordinates, ["coordinates"]);
  if (o.type !== "MultiPolygon") return { path: ["type"], message: `type ${JSON.stringify(o.type)}: not an area` };
  const c = o.coordinates;
  if (!Array.isArray(c) || c.length === 0) return { path: ["coordinates"], message: "no polygons" };
  for (let i = 0; i < c.length; i++) {
    const issue = polygon(c[i], ["coordinates", i]);
    if (issue) return issue;
  }
  return undefined;
}

function polygon(rings: unknown, path: Array<string | number>): ShapeIssue | undefined {
  if (!Array.isArray(rings) || rings.length === 0) return { path, message: "no rings" };
  for (let r = 0; r < rings.length; r++) {
    const ring: unknown = rings[r];
    if (!Array.isArray(ring) || ring.length < 4)
      return { path: [...path, r], message: "a ring of fewer than 4 positions" };
    for (let i = 0; i < ring.length; i++) {
      const p: unknown = ring[i];
      if (!Array.isArray(p) || p.length !== 2) return { path: [...path, r, i], message: "not a [lon, lat] pair" };
      const [lon, lat] = p as [unknown, unknown];
      if (typeof lon !== "number" || !Number.isFinite(lon) || lon < -180 || lon > 180)
        return { path: [...path, r, i, 0], message: `longitude ${lon} outside -180..180` };
      if (typeof lat !== "number" || !Number.isFinite(lat) || lat < -90 || lat > 90)
        return { path: [...path, r, i, 1], message: `latitude ${lat} outside -90..90` };
    }
  }
  return undefined;
}
