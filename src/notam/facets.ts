// Obstacle facets (docs/contract.md §2.9, docs/design.md §4): which physical kinds of obstacle a NOTAM's Item E names.
// A facet is 1 only on a high-confidence phrase; 0 means "no rule matched", never "absent".
// Precision comes first: bare TOWER, WIND, TURBINE or POLE, and TWR in any form, never count.
// Evidence and the labelled sample behind each rule: fixtures/facets/ (PROVENANCE.md, labelled.jsonl).

export interface ObstacleFacets {
  iscraneobstacle: 0 | 1;
  iswindturbineobstacle: 0 | 1;
  ismastortowerobstacle: 0 | 1;
  ispoleorpylonobstacle: 0 | 1;
}

/**
 * A bracketed locality right after a coordinate names a landmark, not the obstacle:
 * "UAS OPR WI 1.65NM RADIUS OF 571448N 0041444W (DUNMAGLASS WINDFARM)",
 * "SEARCHLIGHT DISPLAY WI 1NM RADIUS 533654N 0013949W (EMLEY MOOR MAST)", also doubled: "0012152E ((HORNSEA …))".
 */
const LOCALITY = /(\d[\d.,]*\s?[EW])\s*[.,:]?\s*\(+[^()]*\)+/g;

/**
 * A wind farm named as the purpose or subject of an activity, not as an obstacle:
 * "RADAR CALIBRATION FOR WINDFARM TRIAL", "WINDFARM FLIGHT CALIBRATION", "INSPECTION OF FREASDAIL WINDFARM",
 * "MEASUREMENT MAST FOR WIND TURBINE".
 */
const WIND_ACTIVITY = [
  /\b(?:FOR|INSPECTION OF(?: [A-Z'-]+){0,3}) WIND[ -]?(?:FARM|PARK|TURBINE?)S?\b/g,
  /\bWIND[ -]?(?:FARM|PARK)S? (?:FLIGHT |RADAR )?(?:TRIAL|CALIBRATION|INSPECTION|SURVEY)S?\b/g,
];

const RULES: Readonly<Record<keyof ObstacleFacets, RegExp>> = {
  // CRANE, CRANES, MOBILE/TOWER/JIB/CRAWLER CRANE; not CRANFIELD, CRANWELL.
  iscraneobstacle: /\bCRANES?\b/,
  // WIND TURBINE(S), WINDTURBINE(S), the common misspelling WIND TURBIN(S), WIND FARM, WINDPARK, WINDMILL FARMS,
  // WIND POWER STATIONS; not WIND alone (WIND SHEAR, WINDSOCK, SFC WIND) nor TURBINE alone (GAS TURBINE).
  iswindturbineobstacle: /\bWIND[ -]?(?:TURBINE?S?|FARMS?|PARKS?|POWER (?:STATION|PLANT)S?)\b|\bWINDMILL FARMS?\b/,
  // Any MAST (RADIO, MET, WIND MEASURING, LATTICE, HIRTA…); a TOWER only with a qualifier that makes it a structure
  // ("UNLIT TOWER PSN", "OBST LGT ON TOWER-U/S", "FLARE TOWER"), never ATC/CONTROL/CTL TOWER, TWR or TOWER CRANE.
  // A wind-measuring "pylon" is a met mast (the same Fauvillers mast is published under both names).
  ismastortowerobstacle:
    /\bMASTS?\b|\bMEASUR[A-Z]*[ -]PYLONS?\b|\b(?:RADIO|TV|TELEVISION|TELECOMS?|TELECOMMUNICATIONS?|COMMUNICATIONS?|COMMS|TRANSMITTER|LATTICE|MET|METEOROLOGICAL|OBSERVATION|FLARE|DRILL|DRILLING|OBST|OBSTACLE|LIT|UNLIT) TOWERS?\b(?! ?CRANE)|\b(?:LGT|LIGHTS?) ON TOWERS?\b/,
  // PYLON(S) and POWER LINE TOWER; a POLE only with a qualifier: bare POLE is too weak ("POLE HILL" departure,
  // French "POLE SANTE", place names), as is "HIGH VOLTAGE POST".
  ispoleorpylonobstacle:
    /(?<!MEASUR[A-Z]*[ -])\bPYLONS?\b|\bPOWER ?LINE (?:TOWER|POLE)S?\b|\b(?:ELECTRICITY|POWER|HIGH[ -]TENSION|HIGH[ -]VOLTAGE|TELEGRAPH|TELEPHONE|UTILITY|FENCE|WOODEN|CONCRETE|STEEL|LIGHTING|LIT|UNLIT|OBST) POLES?\b|\bFLAGPOLES?\b/,
};

/** Reads the obstacle facets of one Item E (any case, any line breaks). Pure. */
export function obstacleFacets(itemE: string): ObstacleFacets {
  const text = itemE.toUpperCase().replace(/\s+/g, " ").replace(LOCALITY, "$1");
  const windText = WIND_ACTIVITY.reduce((t, activity) => t.replace(activity, " "), text);
  const hit = (rule: RegExp, within: string): 0 | 1 => (rule.test(within) ? 1 : 0);
  return {
    iscraneobstacle: hit(RULES.iscraneobstacle, text),
    iswindturbineobstacle: hit(RULES.iswindturbineobstacle, windText),
    ismastortowerobstacle: hit(RULES.ismastortowerobstacle, text),
    ispoleorpylonobstacle: hit(RULES.ispoleorpylonobstacle, text),
  };
}
