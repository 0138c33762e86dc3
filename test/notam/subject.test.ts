// What a NOTAM does (notamEffect) and what it only mentions (isMention), on Item E text of real NOTAMs (the SOFIA
// briefs of February 2026 and the 2018 FR/BE PIB); the labelled figures are test/resolve/link-eval.test.ts.
import { describe, expect, it } from "vitest";
import { isMention, kindOfDesignator, notamEffect } from "../../src/notam/subject.js";

describe("notamEffect", () => {
  it("the Q-code's condition first: CA, CS, LW activate, CD deactivates", () => {
    expect(notamEffect("CA", "RESTRICTED AREA EDR73B ALTENGRABOW ACTIVE.")).toBe("activate");
    expect(notamEffect("CS", "ZRT CROTALE : LIMITES LATERALES : CERCLE DE 0.3NM")).toBe("activate");
    expect(notamEffect("LW", "PJE WILL TAKE PLACE")).toBe("activate");
    expect(notamEffect("CD", "MCTR AND MTMA PARDUBICE DEACTIVATED.")).toBe("deactivate");
    expect(notamEffect("CD", "TMA SAINT YAN DESACTIVEE.")).toBe("deactivate");
  });

  it("under CH or XX, Item E decides, in English, French, German, Slovene", () => {
    expect(notamEffect("XX", "LF-R68 A B C ACTIVES")).toBe("activate");
    expect(notamEffect("XX", "OBMOCJE OMEJENEGA PROMETA LJR4 PIVKA-ILIRSKA BISTRICA AKTIVIRANO.")).toBe("activate");
    expect(notamEffect("XX", "ED-R 132B AKTIV")).toBe("activate");
    expect(notamEffect("CH", "LF-R574 A AUVOURS MODIFIEE : HOR MODIFIES : POSSIBLE ACTIVATION H24")).toBe("change");
    // EDDZ C0226/26 is QACAH; under CH new hours are a change: the CTR may be active outside the old ones
    expect(notamEffect("AH", "SYLT CTR HR OF SER ARE NOW:\nDLY 0900-1530.\nOTHER TIMES PPR.")).toBe("activate");
    expect(notamEffect("CH", "SYLT CTR HR OF SER ARE NOW:\nDLY 0900-1530.\nOTHER TIMES PPR.")).toBe("change");
    expect(notamEffect("CH", "NO DANGER AREA CROSSING SERVICE AVAILABLE")).toBe("inform");
  });

  it("a temporary area established or installed is active; what is established inside another activates none", () => {
    // EYVN-A0357/26 (QRPTT), EGGN-J0221/26, ESSA-A0139/26 (QWELW)
    expect(notamEffect("TT", "TEMPORARY PROHIBITED AREAS ESTABLISHED:\nEYP225, EYP226")).toBe("activate");
    expect(notamEffect("XX", "TEMPO DANGER AREA (TDA) EGD188 INSTALLED")).toBe("activate");
    expect(notamEffect("LW", "ESD823 BORAS UAS ESTABLISHED.")).toBe("activate");
    // UK PIB B1052/24: a TMZ in a portion of the Scottish TMA
    const tmz = "EMERGENCY MANDATORY TRANSPONDER ZONE ESTABLISHED IN A PORTION OF\nTHE SCOTTISH TMA DUE TO RADAR";
    expect(notamEffect("XX", tmz)).toBe("inform");
  });

  it("a change of telephone numbers informs, it activates nothing", () => {
    const text =
      "LF-R597 'SAINT JEAN DE LINIERES' MODIFIEE :\n- MODIFICATION DES NUMEROS DE TELEPHONE PUBLIES A L'AIP.\n" +
      "LES NUMEROS A UTILISER SONT :\nGESTIONNAIRE: 02 41 24 83 17 OU 02 41 24 85 01\nPC TIR: 06 32 65 71 84";
    expect(notamEffect("CH", text)).toBe("inform");
    expect(notamEffect(undefined, text)).toBe("inform");
  });
});

describe("isMention", () => {
  const at = (text: string, word: string) => text.indexOf(word);

  it("a reference before the designator: IDENTIQUES A LA, COEXISTE AVEC, A L'EXCLUSION DE LA, REF AIP", () => {
    const zit = "1. LIMITES LATERALES :\nIDENTIQUES A LA LF-R203A LA COURTINE PUBLIEE A L'AIP ENR 5.1.";
    expect(isMention(zit, at(zit, "LF-R203A"), "R", "RO")).toBe(true);
    const zrt = "ZONE REGLEMENTEE TEMPORAIRE (ZRT) QUI COEXISTE AVEC LA LF-P40 AVORD";
    expect(isMention(zrt, at(zrt, "LF-P40"), "P", "RT")).toBe(true);
    const excl = "ZONE INTERDITE TEMPORAIRE QUI COEXISTE AVEC LES PORTIONS, A L'EXCLUSION DE LA LF-R503 MOURMELON";
    expect(isMention(excl, at(excl, "LF-R503"), "R", "RO")).toBe(true);
    const ref = "CTR LOURDES DESACTIVEE.\nREF AIP : AD 2 LFBT.3, AD 2 LFBT TXT 02, ENR 2.1 TMA BIARRITZ 3";
    expect(isMention(ref, at(ref, "TMA BIARRITZ"), "TMA", "AC")).toBe(true);
  });

  it("a clause's end makes what follows the subject again", () => {
    const text = "OUTSIDE OPN HR OF EBFS AD, EB-R06B IS ACTIVE";
    expect(isMention(text, at(text, "EB-R06B"), "R", "RR")).toBe(false);
    expect(isMention("RESTRICTED AREA EDR132B (HEUBERG) ACT.", 16, "R", "RR")).toBe(false);
  });

  it("an activity placed in an airspace mentions it, unless the Q-code is about that kind of airspace", () => {
    const drones = "UAS ACTIVITY WITHIN BIARRITZ CTR";
    expect(isMention(drones, at(drones, "BIARRITZ"), "CTR", "WU")).toBe(true);
    const tma = "Y AND Z WITHIN LSGG TMA PROHIBITED FOR PISTON SINGLE ENG ACFT.";
    expect(isMention(tma, at(tma, "LSGG"), "TMA", "AT")).toBe(false);
    expect(isMention(tma, at(tma, "LSGG"), "TMA", "WU")).toBe(true);
  });

  it("a NOTAM about one kind of airspace names the others only as places", () => {
    const rat = "RESTRICTED AREA (TEMPORARY) ACTIVE (LONDON CITY CTR AND LONDON HEATHROW CTR) AREA F";
    expect(isMention(rat, at(rat, "LONDON CITY"), "CTR", "RT")).toBe(true);
    expect(isMention(rat, at(rat, "LONDON CITY"), "CTR", "AC")).toBe(false);
    const hta = "HTA14-MIL HEL TRAINING AREA ACT";
    expect(isMention(hta, 0, "HTA", "RM")).toBe(false);
    expect(isMention(hta, 0, "HTA", "AT")).toBe(true);
  });

  it("knows the kind a designator names", () => {
    expect(["LFR201B", "EPTR767A", "LKTSA24", "LFP7", "EGD98D"].map(kindOfDesignator)).toEqual([
      "R",
      "TRA",
      "TSA",
      "P",
      "D",
    ]);
  });
});
