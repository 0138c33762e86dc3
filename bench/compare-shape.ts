// What of a feature's drawing changed between two builds: its geometry (vertices, area) and its vertical limits.
import { area } from "@turf/area";
import type { Feature } from "../src/model/contract.js";

export interface Shape {
  geometry: string;
  vertices: number;
  km2: number;
  limits: string;
}

export interface ShapeChange {
  id: string;
  name: string;
  country: string;
  what: string;
}

export function shapeOf(f: Feature): Shape {
  const g = f.geometry;
  const polygons = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
  const p = f.properties;
  return {
    geometry: JSON.stringify(g),
    vertices: polygons.flat(2).length,
    km2: area(g) / 1e6,
    limits: `${p.vendor.formattedLowerLimit} – ${p.vendor.formattedUpperLimit}`,
  };
}

/** The change, in words, or undefined when the drawing is the same. */
export function shapeChange(id: string, name: string, country: string, a: Shape, b: Shape): ShapeChange | undefined {
  const parts: string[] = [];
  if (a.geometry !== b.geometry) {
    parts.push(`geometry ${a.vertices} → ${b.vertices} vertices, ${a.km2.toFixed(2)} → ${b.km2.toFixed(2)} km²`);
  }
  if (a.limits !== b.limits) parts.push(`limits ${a.limits} → ${b.limits}`);
  return parts.length > 0 ? { id, name, country, what: parts.join("; ") } : undefined;
}
