/**
 * VAT ID formats per country (the EU member states, Greece as `EL`, and GB, CH, NO), checked on
 * both sides: a format only, as VIES cannot be asked from here. The patterns are the ones the
 * European Commission's VIES documents (and HMRC, the Swiss UID register, Norway's MVA register).
 */
type VatFormat = { prefix: string; pattern: RegExp; example: string };

const FORMATS: Record<string, VatFormat> = {
  AT: { prefix: 'AT', pattern: /^U\d{8}$/, example: 'ATU12345678' },
  BE: { prefix: 'BE', pattern: /^[01]\d{9}$/, example: 'BE0123456789' },
  BG: { prefix: 'BG', pattern: /^\d{9,10}$/, example: 'BG123456789' },
  CY: { prefix: 'CY', pattern: /^\d{8}[A-Z]$/, example: 'CY12345678X' },
  CZ: { prefix: 'CZ', pattern: /^\d{8,10}$/, example: 'CZ12345678' },
  DE: { prefix: 'DE', pattern: /^\d{9}$/, example: 'DE123456789' },
  DK: { prefix: 'DK', pattern: /^\d{8}$/, example: 'DK12345678' },
  EE: { prefix: 'EE', pattern: /^\d{9}$/, example: 'EE123456789' },
  GR: { prefix: 'EL', pattern: /^\d{9}$/, example: 'EL123456789' },
  ES: { prefix: 'ES', pattern: /^[A-Z0-9]\d{7}[A-Z0-9]$/, example: 'ESX1234567X' },
  FI: { prefix: 'FI', pattern: /^\d{8}$/, example: 'FI12345678' },
  FR: { prefix: 'FR', pattern: /^[A-HJ-NP-Z0-9]{2}\d{9}$/, example: 'FR12345678901' },
  HR: { prefix: 'HR', pattern: /^\d{11}$/, example: 'HR12345678901' },
  HU: { prefix: 'HU', pattern: /^\d{8}$/, example: 'HU12345678' },
  IE: { prefix: 'IE', pattern: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/, example: 'IE1234567WA' },
  IT: { prefix: 'IT', pattern: /^\d{11}$/, example: 'IT12345678901' },
  LT: { prefix: 'LT', pattern: /^(\d{9}|\d{12})$/, example: 'LT123456789' },
  LU: { prefix: 'LU', pattern: /^\d{8}$/, example: 'LU12345678' },
  LV: { prefix: 'LV', pattern: /^\d{11}$/, example: 'LV12345678901' },
  MT: { prefix: 'MT', pattern: /^\d{8}$/, example: 'MT12345678' },
  NL: { prefix: 'NL', pattern: /^\d{9}B\d{2}$/, example: 'NL123456789B01' },
  PL: { prefix: 'PL', pattern: /^\d{10}$/, example: 'PL1234567890' },
  PT: { prefix: 'PT', pattern: /^\d{9}$/, example: 'PT123456789' },
  RO: { prefix: 'RO', pattern: /^\d{2,10}$/, example: 'RO1234567890' },
  SE: { prefix: 'SE', pattern: /^\d{10}01$/, example: 'SE123456789001' },
  SI: { prefix: 'SI', pattern: /^\d{8}$/, example: 'SI12345678' },
  SK: { prefix: 'SK', pattern: /^\d{10}$/, example: 'SK1234567890' },
  GB: { prefix: 'GB', pattern: /^(\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/, example: 'GB123456789' },
  CH: { prefix: 'CHE', pattern: /^\d{9}(MWST|TVA|IVA)?$/, example: 'CHE-123.456.789 MWST' },
  NO: { prefix: 'NO', pattern: /^\d{9}(MVA)?$/, example: 'NO123456789MVA' },
};

/** A tax number of a country whose format is not checked: letters, digits and separators. */
const OTHER = /^[A-Z0-9][A-Z0-9 .\-/]{1,28}[A-Z0-9]$/;

export type VatCheck = { ok: true; value: string } | { ok: false; message: string };

/** Whether the country's VAT IDs have a checked format. */
export const hasVatFormat = (country: string) => country.toUpperCase() in FORMATS;

/**
 * Checks a VAT ID against its country's format and answers it normalised (upper case, no spaces or
 * separators, the country prefix added when it was left out), or a message for the field.
 */
export function checkVatId(input: string, country: string): VatCheck {
  const raw = input.trim().toUpperCase();
  const format = FORMATS[country.toUpperCase()];
  if (!format) {
    return OTHER.test(raw)
      ? { ok: true, value: raw }
      : { ok: false, message: 'Enter the tax number with letters and digits only (3 to 30 characters).' };
  }
  const compact = raw.replace(/[\s.-]/g, '');
  const body = compact.startsWith(format.prefix) ? compact.slice(format.prefix.length) : compact;
  if (!format.pattern.test(body)) {
    const name = country.toUpperCase() === 'GR' ? 'Greek' : `${country.toUpperCase()}`;
    return { ok: false, message: `This is not a valid ${name} VAT ID: it should look like ${format.example}.` };
  }
  return { ok: true, value: `${format.prefix}${body}` };
}
