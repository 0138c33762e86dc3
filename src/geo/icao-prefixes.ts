// ICAO location-indicator prefixes to ISO 3166-1 alpha-2 countries.
// PRIMARY is EUROCONTROL's member-state table (the data corpus's fir/eurocontrol_member_states_icao_iso2.csv, MIT);
// LY is shared by Serbia and Montenegro (Beograd FIR): it maps to RS; an operator names ME per source when needed.
// SECONDARY adds prefixes that table leaves out (military, overseas, neighbours of the EUROCONTROL area).

const PRIMARY: Record<string, string> = {
  BK: "XK",
  EB: "BE",
  ED: "DE",
  EE: "EE",
  EF: "FI",
  EG: "GB",
  EH: "NL",
  EI: "IE",
  EK: "DK",
  EL: "LU",
  EN: "NO",
  EP: "PL",
  ES: "SE",
  EV: "LV",
  EY: "LT",
  GM: "MA",
  LA: "AL",
  LB: "BG",
  LC: "CY",
  LD: "HR",
  LE: "ES",
  LF: "FR",
  LG: "GR",
  LH: "HU",
  LI: "IT",
  LJ: "SI",
  LK: "CZ",
  LL: "IL",
  LM: "MT",
  LN: "MC",
  LO: "AT",
  LP: "PT",
  LQ: "BA",
  LR: "RO",
  LS: "CH",
  LT: "TR",
  LU: "MD",
  LW: "MK",
  LY: "RS",
  LZ: "SK",
  UD: "AM",
  UG: "GE",
  UK: "UA",
};

const SECONDARY: Record<string, string> = {
  BI: "IS",
  BG: "GL",
  ET: "DE",
  GC: "ES",
  GE: "ES",
  LX: "GI",
  LV: "PS",
  UM: "BY",
  UU: "RU",
  UL: "RU",
  UR: "RU",
  UW: "RU",
  UH: "RU",
  US: "RU",
  UN: "RU",
  UI: "RU",
  UE: "RU",
  DT: "TN",
  DA: "DZ",
  HL: "LY",
  HE: "EG",
  OL: "LB",
  OS: "SY",
  OJ: "JO",
};

/** Four-letter identifiers whose prefix says otherwise (Kaliningrad uses UM but is Russian). */
const BY_IDENT: Record<string, string> = {
  UMKK: "RU",
};

/** Country of an ICAO location indicator (`EDDF`, `EDGG`) or a bare two-letter prefix (`ED`). */
export function countryOfIcao(indicator: string): string | undefined {
  const id = indicator.toUpperCase();
  const exact = BY_IDENT[id];
  if (exact) return exact;
  const prefix = id.slice(0, 2);
  return PRIMARY[prefix] ?? SECONDARY[prefix];
}

/** Each country's ICAO prefixes, primary first. */
const PREFIXES = new Map<string, string[]>();
for (const [prefix, cc] of [...Object.entries(PRIMARY), ...Object.entries(SECONDARY)]) {
  PREFIXES.set(cc, [...(PREFIXES.get(cc) ?? []), prefix]);
}

/** The ICAO prefixes of a country, primary first (`DE` → `ED`, `ET`). */
export function countryPrefixes(country: string): readonly string[] {
  return PREFIXES.get(country.toUpperCase()) ?? [];
}
