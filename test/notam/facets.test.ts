// Obstacle facets (docs/contract.md §2.9) against a hand-labelled sample of real Item E texts (fixtures/facets/PROVENANCE.md).
// Precision first: not one false 1 over the sample. Recall is shown in the test names and must reach 90 % for every
// facet with at least 10 positives. Then one named test per phrase that must, or must never, count.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type ObstacleFacets, obstacleFacets } from "../../src/notam/facets.js";
import { FIXTURES } from "../helpers.js";

const LABELS = {
  crane: "iscraneobstacle",
  windturbine: "iswindturbineobstacle",
  mastortower: "ismastortowerobstacle",
  poleorpylon: "ispoleorpylonobstacle",
} as const satisfies Record<string, keyof ObstacleFacets>;
type Label = keyof typeof LABELS;
interface Labelled {
  id: string;
  source: string;
  itemE: string;
  labels: Record<Label, 0 | 1>;
  note?: string;
}

const sample: Labelled[] = readFileSync(path.join(FIXTURES, "facets", "labelled.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Labelled);
const predicted = new Map(sample.map((s) => [s.id, obstacleFacets(s.itemE)]));

function score(label: Label) {
  const facet = LABELS[label];
  const positives = sample.filter((s) => s.labels[label] === 1);
  const found = positives.filter((s) => predicted.get(s.id)![facet] === 1);
  const falsePositives = sample.filter((s) => s.labels[label] === 0 && predicted.get(s.id)![facet] === 1);
  const missed = positives.filter((s) => predicted.get(s.id)![facet] === 0).map((s) => s.id);
  const recall = positives.length === 0 ? 1 : found.length / positives.length;
  return { facet, positives: positives.length, found: found.length, falsePositives, missed, recall };
}

const on = (facets: Partial<ObstacleFacets>): ObstacleFacets => ({
  iscraneobstacle: 0,
  iswindturbineobstacle: 0,
  ismastortowerobstacle: 0,
  ispoleorpylonobstacle: 0,
  ...facets,
});
const NONE = on({});

describe("the labelled sample", () => {
  it(`has at least 200 real Item E texts with unique ids and 0/1 labels (${sample.length})`, () => {
    expect(sample.length).toBeGreaterThanOrEqual(200);
    expect(new Set(sample.map((s) => s.id)).size).toBe(sample.length);
    for (const s of sample) {
      expect(s.itemE.length, s.id).toBeGreaterThan(0);
      expect(Object.keys(s.labels).sort(), s.id).toEqual(Object.keys(LABELS).sort());
      for (const v of Object.values(s.labels)) expect([0, 1], s.id).toContain(v);
    }
  });
});

describe.each(Object.keys(LABELS) as Label[])("facet %s over the labelled sample", (label) => {
  const s = score(label);
  const pct = (100 * s.recall).toFixed(1);

  it(`has no false positive (${s.facet})`, () => {
    expect(s.falsePositives.map((f) => `${f.id}: ${f.itemE.slice(0, 80)}`)).toEqual([]);
  });

  it(`recall ${s.found}/${s.positives} = ${pct} %${s.positives >= 10 ? ", at least 90 %" : " (too few positives to assert)"}`, () => {
    if (s.positives >= 10) expect(s.recall, `missed: ${s.missed.join(", ")}`).toBeGreaterThanOrEqual(0.9);
  });
});

describe("high-confidence phrases count", () => {
  it.each([
    ["CRANE", "CRANE OPR PSN 513539N 0002035W. UP TO 342FT AGL", on({ iscraneobstacle: 1 })],
    ["CRANES", "2 CRANES ERECTED PSN 0,6NM E OF LANDINGSITE", on({ iscraneobstacle: 1 })],
    ["MOBILE CRANE", "LIT MOBILE CRANE OPR 522746N 0014351W", on({ iscraneobstacle: 1 })],
    [
      "TOWER CRANE (a crane, not a tower)",
      "TOWER CRANE ERECTED AT PSN 525414.9N 0010714.2W",
      on({ iscraneobstacle: 1 }),
    ],
    ["UNLIT TOWER CRANE (a crane, not a tower)", "UNLIT TOWER CRANE PSN 525414N 0010714W", on({ iscraneobstacle: 1 })],
    ["CRANE REMOVED (still about a crane)", "CRANE REMOVED. NOTAM A1234/24 CANCELLED", on({ iscraneobstacle: 1 })],
    ["WIND TURBINE", "UNLIT WIND TURBINE AT PSN 523937N 0001001W", on({ iswindturbineobstacle: 1 })],
    ["WIND TURBINES", "12 WIND TURBINES OPR AT SCEAUX DU GATINAIS", on({ iswindturbineobstacle: 1 })],
    ["WINDTURBINE", "ERECTION OF 1 WINDTURBINE AT GENK", on({ iswindturbineobstacle: 1 })],
    ["WINDTURBINES", "ERECTION OF 6 WINDTURBINES AT OHEY", on({ iswindturbineobstacle: 1 })],
    ["WIND TURBINS (misspelt)", "3 WIND TURBINS AT ORMOY", on({ iswindturbineobstacle: 1 })],
    ["WIND FARM", "WIND FARM LIGHT U/S WI 0.1NM RADIUS OF 601958N 0011122W", on({ iswindturbineobstacle: 1 })],
    ["WINDFARM", "OBST OFFSHORE WINDFARM UNDER CONSTRUCTION WI 10NM RADIUS", on({ iswindturbineobstacle: 1 })],
    ["WIND PARK", "MSA RAISED DUE TO WIND PARK PSN 483244N 0094212E", on({ iswindturbineobstacle: 1 })],
    ["WINDPARK", "MSA RAISED DUE TO WINDPARK PSN 483244N 0094212E", on({ iswindturbineobstacle: 1 })],
    ["WINDMILL FARMS", "OBST WINDMILL FARMS WI 2.5NM 504138N 0021026W", on({ iswindturbineobstacle: 1 })],
    ["MAST", "UNLIT MAST AT PSN 514400N 0014000W", on({ ismastortowerobstacle: 1 })],
    ["MASTS", "UNLIT MASTS PSN 503833N 0033351W", on({ ismastortowerobstacle: 1 })],
    ["RADIO MAST", "RADIO MAST ERECTED AT PSN 463907N 0141922E", on({ ismastortowerobstacle: 1 })],
    ["LATTICE MAST", "LATTICE MAST 300FT AGL ERECTED", on({ ismastortowerobstacle: 1 })],
    ["TELECOMMUNICATION MAST", "TELECOMMUNICATION MAST ERECTED", on({ ismastortowerobstacle: 1 })],
    ["TELECOMMUNICATIONS TOWER", "TELECOMMUNICATIONS TOWER ERECTED 150FT AGL", on({ ismastortowerobstacle: 1 })],
    ["COMMUNICATION TOWER", "NEW COMMUNICATION TOWER 200FT AGL", on({ ismastortowerobstacle: 1 })],
    ["COMMUNICATIONS TOWER", "COMMUNICATIONS TOWER LGT U/S", on({ ismastortowerobstacle: 1 })],
    ["RADIO TOWER", "RADIO TOWER OBST LGT U/S", on({ ismastortowerobstacle: 1 })],
    ["TV TOWER", "TV TOWER 1084FT AGL OBST LGT U/S", on({ ismastortowerobstacle: 1 })],
    ["LATTICE TOWER", "LATTICE TOWER ERECTED 120M AGL", on({ ismastortowerobstacle: 1 })],
    ["UNLIT TOWER", "UNLIT TOWER PSN 510744N 0025322W", on({ ismastortowerobstacle: 1 })],
    ["OBST LGT ON TOWER", "OBST LGT ON TOWER-U/S PSN : 354208.0N1403223.0E", on({ ismastortowerobstacle: 1 })],
    [
      "WIND MEASURING MAST (a mast, not a turbine)",
      "WIND MEASURING MAST AT DOIGNIES",
      on({ ismastortowerobstacle: 1 }),
    ],
    ["WIND-MEASURING PYLON (a met mast)", "1 WIND-MEASURING PYLON ERECTED", on({ ismastortowerobstacle: 1 })],
    ["PYLON", "REPORT OF UNLIT PYLON AT PSN 562021N 0050420W", on({ ispoleorpylonobstacle: 1 })],
    ["PYLONS", "ERECTION OF 3 HIGH TENSION PYLONS AT ANTOING", on({ ispoleorpylonobstacle: 1 })],
    ["ELECTRICITY PYLON", "ELECTRICITY PYLON 180FT AGL", on({ ispoleorpylonobstacle: 1 })],
    ["POWER LINE POLE", "POWER LINE POLE ERECTED 60FT AGL", on({ ispoleorpylonobstacle: 1 })],
    ["POWER LINE TOWER (a pylon)", "OBST LGT ON POWER LINE TOWER-U/S", on({ ispoleorpylonobstacle: 1 })],
    ["FENCE POLES", "FENCE POLES ESTABLISHED AS FLW", on({ ispoleorpylonobstacle: 1 })],
  ] as const)("%s", (_, itemE, expected) => {
    expect(obstacleFacets(itemE)).toEqual(expected);
  });
});

describe("excluded phrases never count", () => {
  it.each([
    ["bare TOWER", "TOWER PSN 504411N 0033215W HGT 152FT AGL UNLIT"],
    ["bare WIND", "ESTIMATED WIND AND QFE ONLY"],
    ["bare TURBINE", "INCLUDES HIGH SPEED GAS TURBINE MODELS"],
    ["bare POLE", "AMEND STANDARD DEPARTURE CHART - POLE HILL (DAY ONLY)"],
    ["French POLE SANTE", "HELIPORT SARAN POLE SANTE OBST LGT U/S"],
    ["ATS TOWER", "ATS TOWER HOURS AMENDED"],
    ["TWR frequency", "LYDD TWR FREQ 119.380MHZ U/S"],
    ["TWR as a unit", "AD/TWR CLOSED. AD NOT AVBL TO GENERAL AVIATION"],
    ["DRILLING TWR (TWR is never read as a tower)", "DRILLING TWR LOCATED PSN N323050E0350541"],
    ["TOWER FREQ", "CTC CHELTENHAM TOWER FREQ 121.180"],
    ["TOWER frequency after a name", "LIVERPOOL TOWER 126.355MHZ AND RADAR 119.955MHZ"],
    ["CTL TOWER", "RWY 27 CLSD. CTL TOWER EVACUATED"],
    ["CTL TWR", "REDUCED RED OBST LGT DUE WIP (HEATHROW CTL TWR) HGT 285FT AGL"],
    ["CONTROL TOWER", "TWY ALPHA FROM CONTROL TOWER TO ALPHA 3 CLOSED"],
    ["AERODROME CONTROL TOWER", "AERODROME CONTROL TOWER RELOCATED TO TEMPORARY FACILITY"],
    ["AIR TRAFFIC CONTROL TOWER", "AIR TRAFFIC CONTROL TOWER AND AIRFIELD MANAGEMENT FACILITIES CLOSED"],
    ["TOWER HOURS", "INVERNESS TOWER AND APPROACH HOURS EXTENDED"],
    ["RADAR IN THE TOWER", "SRA APCH NOT AVBL WHEN RITT (RADAR IN THE TOWER) OPS ARE ACTIVE"],
    ["WIND DIRECTION", "RWY 03 ONLY, WIND DIRECTION PERMITTING"],
    ["WIND SHEAR", "LOW LVL WIND SHEAR ADVS NOT PROVIDED DUE TO MAINT"],
    ["WIND SOCK", "RWY 28 WIND SOCK U/S"],
    ["WINDSOCK", "RWY 09 THRESHOLD WINDSOCK UNLIT"],
    ["WIND SLEEVE", "RWY 23 WIND SLEEVE OBST LIGHT AND ILLUMINATING LIGHTS U/S"],
    ["WIND INDICATOR", "LIGHTED WIND INDICATOR U/S"],
    ["DOWNWIND and CROSSWIND", "NO OVERHEAD OR CROSSWIND JOINS. BALLOONS UP TO 5NM DOWNWIND"],
    ["CRANFIELD", "CRANFIELD APPROACH CH 122.855 OPR AS CRANFIELD TWR"],
    ["CRANWELL", "MIL ACFT FLYPAST WI 1NM RADIUS OF RAF CRANWELL"],
    ["CRANEFIELD", "UAS OPR WI 0.5NM OF CRANEFIELD FARM"],
    ["MASTER", "CTC THE AERODROME MASTER ON 123.450"],
    ["DAMASTOWN", "UAS OPR WI 0.5NM RADIUS OF DAMASTOWN"],
    ["BOARDMASTERS and OSMASTON", "UAS SWARM OPR AT OSMASTON AND BOARDMASTERS"],
    ["POLEN", "FIR POLEN (EPWW) ACTIVITY"],
    ["NAPOLEON", "NAPOLEON BONAPARTE AIRPORT WIP"],
    ["CLAYPOLE, WALPOLE, POLESWORTH", "FLYPASTS AT CLAYPOLE, WALPOLE ST ANDREW AND POLESWORTH"],
    ["CHIMNEY", "OBST LGT ON CHIMNEY AT PSN: 500314.5N 0200024.5E U/S"],
    ["ANTENNA alone", "ANTENNA 0.3KM 000DEG GEO ARP LSZB, MARKED, LGTD"],
    ["WATER TOWER as a locality", "MEWP ERECTED PSN 522206.7N 0002812.4E (WATER TOWER, MILDENHALL AD)"],
    ["wind farm as a locality", "UAS OPR WI 1.65NM RADIUS OF 571448N 0041444W (DUNMAGLASS WINDFARM)"],
    ["mast as a locality", "SEARCHLIGHT DISPLAY WI 1NM RADIUS 533654N 0013949W (EMLEY MOOR MAST)"],
    ["wind farm trial", "RADAR CALIBRATION FOR WINDFARM TRIAL WI 3.7NM RADIUS"],
    ["wind farm calibration", "WINDFARM FLIGHT CALIBRATION WI 4NM RADIUS"],
    ["wind farm inspection", "UAS OPR. INSPECTION OF FREASDAIL WINDFARM"],
  ])("%s", (_, itemE) => {
    expect(obstacleFacets(itemE)).toEqual(NONE);
  });

  it("a mast for a wind turbine is a mast, not a turbine", () => {
    expect(obstacleFacets("MEASUREMENT MAST FOR WIND TURBINE AT LAVERRIERE")).toEqual(on({ ismastortowerobstacle: 1 }));
  });

  it("a wind turbine tower is a turbine, not a mast/tower", () => {
    expect(obstacleFacets("OBST OTHER - WIND TURBINE TOWER AT PSN 574141N 0040152W")).toEqual(
      on({ iswindturbineobstacle: 1 }),
    );
  });

  it("a bracketed obstacle type before the position still counts", () => {
    expect(obstacleFacets("(MASTS) PSN 530338N 0013237W (AMBER VALLEY, DERBYSHIRE)")).toEqual(
      on({ ismastortowerobstacle: 1 }),
    );
  });
});

describe("several facets at once", () => {
  it("CRANES AND MASTS", () => {
    expect(obstacleFacets("CRANES AND MASTS OPR WI 0.5NM OF 513005N 0002434W")).toEqual(
      on({ iscraneobstacle: 1, ismastortowerobstacle: 1 }),
    );
  });

  it("all four kinds in one notice", () => {
    expect(obstacleFacets("MOBILE CRANE, 2 WIND TURBINES, RADIO MAST AND ELECTRICITY PYLONS ERECTED")).toEqual(
      on({ iscraneobstacle: 1, iswindturbineobstacle: 1, ismastortowerobstacle: 1, ispoleorpylonobstacle: 1 }),
    );
  });
});

describe("text shape", () => {
  it("reads lower case", () => {
    expect(obstacleFacets("lit mobile crane opr near a wind turbine")).toEqual(
      on({ iscraneobstacle: 1, iswindturbineobstacle: 1 }),
    );
  });

  it("reads a phrase broken across lines", () => {
    expect(obstacleFacets("ERECTION OF 2 WIND\nTURBINES AND A RADIO\r\n  MAST")).toEqual(
      on({ iswindturbineobstacle: 1, ismastortowerobstacle: 1 }),
    );
  });

  it("answers all zeros for empty text", () => {
    expect(obstacleFacets("")).toEqual(NONE);
  });
});
