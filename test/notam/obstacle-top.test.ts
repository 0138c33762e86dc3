// An obstacle's top from its Item E (issue 57 §4), in the phrasings of the SOFIA briefs' offices.
import { describe, expect, it } from "vitest";
import { LimitUnit, ReferenceDatum } from "../../src/model/vocab.js";
import { obstacleTop } from "../../src/notam/obstacle-top.js";

const FT = LimitUnit.FEET;
const M = LimitUnit.METER;
const MSL = ReferenceDatum.MSL;
const GND = ReferenceDatum.GND;

describe("obstacleTop", () => {
  it.each([
    ["LIT CRANE OPR PSN 513002N 0002447W (HAYES). MAX HGT 148FT AGL, 249FT AMSL.", 249, FT, MSL],
    [
      "CRANE ERECTED AT AREA WAENGLE PSN: 472850N 0104123E ELEV: 893M/2930FT AMSL MAX HGT: 37M/122FT AGL",
      2930,
      FT,
      MSL,
    ],
    [
      "GRUE A TOUR PROCHE AD LFPB - PSN : 485656N 0022154E - HAUTEUR : 296FT - ALTITUDE AU SOMMET : 414FT",
      414,
      FT,
      MSL,
    ],
    [
      "PANNE BALISAGE PARC EOLIEN PSN MOY : 432513N 0022134E HAUTEUR : 443FT ALTITUDE SOMMITALE MAXIMALE : 3412FT",
      3412,
      FT,
      MSL,
    ],
    ["WINDPARK S NIEDERSCHEIDWEILER AT PSN 500301N 0065710E. ELEV 2006FT/722FT AGL.", 2006, FT, MSL],
    ["CATENARY MARKED, 462302N0072754E, 150.4M / 493.5FT AGL, 2935.7M / 9631.6FT AMSL.", 9631.6, FT, MSL],
    ["CRANE ERECTED AT PSN 521510N0090154E HEIGHT 213FT GND / 422FT AMSL DAY AND NIGHT MARKED", 422, FT, MSL],
    ["OBST - WINDMILL (VRBICE II) PSN 500915,46N0131334,14E. MAX HGT 191M/ELEV 794M. NIGHT MARKING.", 794, M, MSL],
    [
      "CRANE POSITION 43.837628N 18.297363E, OBSTACLE HEIGHT 40M AGL, JIB LENGHT 45M, ELEVATION ON TOP 533M AMSL.",
      533,
      M,
      MSL,
    ],
    [
      "OBST RADIO LINK TOWER PSN COORD (WGS-84) CHG: 440724N 115659E HGT AGL CHG: 85FT ELEV AMSL CHG: 1384FT. ITEM 1 VERTICAL OBSTACLES (HIGHER THAN 80FT AGL)",
      1384,
      FT,
      MSL,
    ],
    ["SINT-ELOOIS-VIJVE CRANE 505345N 0032307E 51M AGL. MARKING UNKNOWN", 51, M, GND],
    ["BRUGGE CRANE 511240N 0031209E 43,5M AGL.", 43.5, M, GND],
    ["SHIP CRANE OPERATING UP TO 656 FT AT PSN 552700N0082801E", 656, FT, GND],
    // several obstacles: the highest
    [
      "VA1: 433656N 0160503E, ELEV/HGT: 2542FT MSL/589FT AGL VA2: 433649N 0160523E, ELEV/HGT: 2562FT MSL/589FT AGL",
      2562,
      FT,
      MSL,
    ],
  ])("%s", (text, value, unit, referenceDatum) => {
    expect(obstacleTop(text)).toEqual({ value, unit, referenceDatum });
  });

  it.each([
    "OBST LGT U/S, ID EFINOB37365 WIND TURBINE, PSN 604104.6N 0212338.1E",
    "CRANE ERECTED AT POSITION 384539.30N 0090928.63W OPERATING WI 60M RADIUS.",
    "CRANE 380M ESE HELIPORT, PSN 5103265N 01343169E, DIST 868.5M FROM ARP",
  ])("states no top: %s", (text) => expect(obstacleTop(text)).toBeUndefined());
});
