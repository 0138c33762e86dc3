// How each EUROCONTROL state names its areas, from real text: the six SOFIA route briefs of February 2026 (Item E of
// each state's NOTAM office) and the EAUP/EUUP archive of 2022 (RSA names of 36 states). The designator grammar
// (designator.ts) reads every form listed; a kind of one state's making (`kinds`) is read only after that state's
// prefix (`ELT406` is an emergency beacon, not a Luxembourg T area). fixtures/designators/states.json holds each
// state's cases, verbatim with their NOTAM keys; docs/design.md §4 the table for readers.

export interface StateDesignators {
  /** ISO 3166-1 alpha-2. */
  country: string;
  name: string;
  /** ICAO prefixes its designators take, primary first. */
  prefixes: readonly string[];
  /** NOTAM offices seen issuing its area NOTAMs in the briefs (none: no NOTAM of the state in the data). */
  offices: readonly string[];
  /** Kinds of its own making, read only glued after its prefix and a number (`EGRU185`, `LDATR103`, `ENT139Z`). */
  kinds?: readonly string[];
  /** How it writes its areas, verbatim from NOTAM Item E or, after `AUP `, an RSA name: each reads a designator. */
  forms: readonly string[];
  /**
   * Areas it names by a name alone or by a code the grammar does not split (AUP `EFTRAV27Z`), verbatim: no designator
   * is read from them; names, aliases and the AUP name as written link them.
   */
  asWritten?: readonly string[];
}

export const STATES: readonly StateDesignators[] = [
  { country: "AL", name: "Albania", prefixes: ["LA"], offices: ["LAAA"], forms: ["AUP LAD2", "AUP LATSA1"] },
  { country: "AM", name: "Armenia", prefixes: ["UD"], offices: [], forms: [] },
  {
    country: "AT",
    name: "Austria",
    prefixes: ["LO"],
    offices: ["LOWW"],
    forms: ["LO R 7", "LOD 21", "LOD28", "AUP LONPZ1"],
    asWritten: ["MTA SCHOBER", "AUP LOMTAISH"],
  },
  {
    country: "BA",
    name: "Bosnia and Herzegovina",
    prefixes: ["LQ"],
    offices: ["LQBH"],
    forms: ["LQR4 MANJACA LOW", "LQD36 OVCAREVO", "AUP LQNPZ1"],
    asWritten: ["(AD HOC BUTMIR 20260112)"],
  },
  {
    country: "BE",
    name: "Belgium",
    prefixes: ["EB"],
    offices: ["EBBR"],
    forms: [
      "EBR05B - HELCHTEREN RUN-IN",
      "TSA26A - ARDENNES 01",
      "LFA11-KOKSIJDE TRAINING AREA",
      "HTA10A- COASTAL HELICOPTER TRAINING AREA",
      "AUP EBCBA1C",
    ],
    asWritten: ["AUP EBTRANA", "AUP EBTRASBZ"],
  },
  { country: "BG", name: "Bulgaria", prefixes: ["LB"], offices: [], forms: ["AUP LBD201", "AUP LBP1", "AUP LBTRA43"] },
  {
    country: "CH",
    name: "Switzerland",
    prefixes: ["LS"],
    offices: ["LSSN"],
    kinds: ["T"],
    forms: ["R-AREA LSR7 HONGRIN", "R-AREA LSR39B BRISEN", "AUP LST24", "AUP LSR11AZ"],
    asWritten: ["TEMPO R-AREA ERISWIL"],
  },
  {
    country: "CY",
    name: "Cyprus",
    prefixes: ["LC"],
    offices: ["LCNC"],
    forms: ["AUP LCD10", "AUP LCTRA01", "AUP LCNPZ1"],
  },
  {
    country: "CZ",
    name: "Czechia",
    prefixes: ["LK"],
    offices: ["LKPR"],
    forms: ["AUP LKTRA10", "AUP LKTRA63Z", "AUP LKTSA21"],
  },
  {
    country: "DE",
    name: "Germany",
    prefixes: ["ED", "ET"],
    offices: ["EDDZ", "ETCZ"],
    forms: ["EDR150 (NLFS40)", "EDR132B", "ED-R TRA 301 (TRA-FRIESLAND 2)", "AUP EDD100Z", "AUP EDR207SZ"],
  },
  {
    country: "DK",
    name: "Denmark",
    prefixes: ["EK"],
    offices: ["EKCH"],
    // `EKTRAHA1`: a training area's NOTAM key in the EKDK topsky file (test data, issue 58)
    forms: ["EKR45 HEVRING", "EKD371 MARSTAL BUGT", "AUP EKD301Z", "EKTRAHA1"],
    asWritten: ["AUP EKDFALCA"],
  },
  {
    country: "EE",
    name: "Estonia",
    prefixes: ["EE"],
    offices: ["EETN"],
    forms: ["EER15E", "EER2509B", "EER25109UAS", "EED13 TAPA 1", "EETSA21 NURMSI", "AUP EETSA16WZ"],
  },
  {
    country: "ES",
    name: "Spain",
    prefixes: ["LE", "GC"],
    offices: ["LEAN"],
    forms: ["LER71A", "LED70C", "LETS31", "AUP LED47AZ"],
    asWritten: ["TSA TALAVERA LOW", "AUP LECADNE"],
  },
  {
    country: "FI",
    name: "Finland",
    prefixes: ["EF"],
    offices: ["EFHK"],
    forms: ["EFR93A NIINISALO", "EFD945C1, EFD945T KELLUU-JOENSUU"],
    asWritten: ["AUP EFTRAV27Z", "AUP EFTSAN14Z", "AUP EFTIKCO1"],
  },
  {
    country: "FR",
    name: "France",
    prefixes: ["LF"],
    offices: ["LFFA"],
    kinds: ["T"],
    forms: [
      "LF-R 368 A B C1 C2 E1 E2",
      "LF D596 A/B/C",
      "LFR31 (A1, A2, A3, A4, A5, A6 ,A7, H)",
      "LF-R343LZ",
      "LFCBA-16B",
      "ZONE R45A",
      "'TRA90NL'",
      "AUP LFR108HN",
    ],
    asWritten: ["'ZRT COTENTIN HIGH'", "AUP LFBANE"],
  },
  {
    country: "GB",
    name: "United Kingdom",
    prefixes: ["EG"],
    offices: ["EGGN"],
    kinds: ["RU"],
    forms: ["EGD098B", "EGD324A WADDINGTON LOW", "EGRU185 NSA BOSCOMBE DOWN", "(EGTR185)", "TRA 003", "AUP EGD323LZ"],
    asWritten: ["RESTRICTED AREA (TEMPORARY) ACTIVE (SHEERNESS, KENT)", "AUP EGDGNY"],
  },
  { country: "GE", name: "Georgia", prefixes: ["UG"], offices: [], forms: [] },
  {
    country: "GR",
    name: "Greece",
    prefixes: ["LG"],
    offices: ["LGGG"],
    forms: ["LGR27 (LITHINON)", "LGD76", "LGP7", "AUP LGD100"],
    asWritten: ["AUP LGMRATRIP"],
  },
  {
    country: "HR",
    name: "Croatia",
    prefixes: ["LD"],
    offices: ["LDZA"],
    kinds: ["ATR"],
    forms: ["'LDATR103'", "LDTS23", "AUP LDTR13"],
    asWritten: ["TEMPORARY RESERVED AREA 'PLOMIN'"],
  },
  {
    country: "HU",
    name: "Hungary",
    prefixes: ["LH"],
    offices: ["LHBP"],
    forms: ["AUP LHD11", "AUP LHD36B", "AUP LHTRA22A"],
  },
  { country: "IE", name: "Ireland", prefixes: ["EI"], offices: [], forms: ["AUP EID13"] },
  {
    country: "IT",
    name: "Italy",
    prefixes: ["LI"],
    offices: ["LIIA", "LIIC"],
    forms: ["LI R313", "LI R308/A", "LI-R49 A", "LI-TSA78A", "LI P113", "AUP LIR404A"],
    asWritten: ["AREA 'TURIAL'", "AUP LIBRYAN"],
  },
  {
    country: "LT",
    name: "Lithuania",
    prefixes: ["EY"],
    offices: ["EYVN"],
    forms: ["EYP225, EYP226, EYP227", "AUP EYR113", "AUP EYTSA4"],
  },
  { country: "LU", name: "Luxembourg", prefixes: ["EL"], offices: ["EBBR"], forms: ["ELTSA7-DIEKIRCH SOUTH"] },
  { country: "LV", name: "Latvia", prefixes: ["EV"], offices: ["EVRA"], forms: ["EVTSA14", "AUP EVD3", "AUP EVTRA3"] },
  { country: "MC", name: "Monaco", prefixes: ["LN"], offices: [], forms: [] },
  { country: "MD", name: "Moldova", prefixes: ["LU"], offices: [], forms: [] },
  { country: "ME", name: "Montenegro", prefixes: ["LY"], offices: ["LYBB"], forms: ["AUP LYTR101Z", "AUP LYTSA05Z"] },
  { country: "MK", name: "North Macedonia", prefixes: ["LW"], offices: ["LWSK"], forms: [] },
  { country: "MT", name: "Malta", prefixes: ["LM"], offices: [], forms: [] },
  {
    country: "NL",
    name: "Netherlands",
    prefixes: ["EH"],
    offices: ["EHMC", "EHAM"],
    forms: ["EHTSA1A", "EHTRA81", "EHR66", "AUP EHD018Z", "AUP EHR4A"],
    asWritten: ["TEMPORARY RESTRICTED AREA 'TGB GEVARENZONE VLIEGBASIS VOLKEL'"],
  },
  {
    country: "NO",
    name: "Norway",
    prefixes: ["EN"],
    offices: ["ENGM"],
    kinds: ["T"],
    forms: ["ENR123 CHEMRING NOBEL", "END156 'HENGSVANN'", "ENT139Z (J2Z)", "AUP END513Z", "AUP ENT124"],
  },
  {
    country: "PL",
    name: "Poland",
    prefixes: ["EP"],
    offices: ["EPWW"],
    forms: ["EPD15 - ACT.", "EPTR501Z", "EPR129", "EPNPZ2:", "EXC EPP1 AND EPP3", "AUP EPTR106", "AUP EPD11Z"],
  },
  {
    country: "PT",
    name: "Portugal",
    prefixes: ["LP"],
    offices: ["LPPP", "LPAM"],
    forms: ["LPD1AW", "OPERATING AREA R26A", "AUP LPR42B"],
    asWritten: ["AREA NAVY 4", "AUP LPTIGER6"],
  },
  { country: "RO", name: "Romania", prefixes: ["LR"], offices: [], forms: ["AUP LRD01", "AUP LRTRA26"] },
  { country: "RS", name: "Serbia", prefixes: ["LY"], offices: ["LYBB"], forms: ["AUP LYTR106Z", "AUP LYTSA05Z"] },
  {
    country: "SE",
    name: "Sweden",
    prefixes: ["ES"],
    offices: ["ESSA"],
    forms: ["ESD823 BORAS UAS", "ESR28A, B AND C", "AUP ESD184Z", "AUP ESTRA63Z"],
    asWritten: ["AUP ESDARK"],
  },
  {
    country: "SI",
    name: "Slovenia",
    prefixes: ["LJ"],
    offices: ["LJLA"],
    forms: ["LJR4 PIVKA-ILIRSKA BISTRICA", "AUP LJNPZ1"],
  },
  {
    country: "SK",
    name: "Slovakia",
    prefixes: ["LZ"],
    offices: [],
    forms: ["AUP LZR225C", "AUP LZTRA03", "AUP LZNPZ1"],
  },
  { country: "TR", name: "Türkiye", prefixes: ["LT"], offices: ["LTAA"], forms: [], asWritten: ["1ST AREA:"] },
  {
    country: "UA",
    name: "Ukraine",
    prefixes: ["UK"],
    offices: [],
    kinds: ["T"],
    forms: ["AUP UKR443", "AUP UKT726B", "AUP UKD915TZ"],
  },
];

const KINDS_BY_PREFIX = new Map<string, ReadonlySet<string>>();
for (const s of STATES) for (const p of s.prefixes) KINDS_BY_PREFIX.set(p, new Set(s.kinds ?? []));

/** Whether a kind of one state's making (`RU`, `ATR`, `T`) is that of the state whose prefix it follows. */
export function isOwnKind(prefix: string, kind: string): boolean {
  return KINDS_BY_PREFIX.get(prefix)?.has(kind) === true;
}
