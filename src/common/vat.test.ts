import { describe, expect, it } from 'vitest';
import { BusinessDetailsSchema } from './schemas/orders.ts';
import { checkVatId, hasVatFormat } from './vat.ts';

describe('VAT ID formats', () => {
  it.each([
    ['DE123456789', 'DE', 'DE123456789'],
    ['de 123 456 789', 'DE', 'DE123456789'],
    ['123456789', 'DE', 'DE123456789'],
    ['ATU12345678', 'AT', 'ATU12345678'],
    ['BE0123456789', 'BE', 'BE0123456789'],
    ['EL123456789', 'GR', 'EL123456789'],
    ['ESX1234567X', 'ES', 'ESX1234567X'],
    ['FR AB 123456789', 'FR', 'FRAB123456789'],
    ['IE1234567WA', 'IE', 'IE1234567WA'],
    ['IE1A23456B', 'IE', 'IE1A23456B'],
    ['NL123456789B01', 'NL', 'NL123456789B01'],
    ['SE123456789001', 'SE', 'SE123456789001'],
    ['PL-123-456-78-90', 'PL', 'PL1234567890'],
    ['GB123456789', 'GB', 'GB123456789'],
    ['GB123456789012', 'GB', 'GB123456789012'],
    ['GBGD001', 'GB', 'GBGD001'],
    ['CHE-123.456.789 MWST', 'CH', 'CHE123456789MWST'],
    ['CHE123456789', 'CH', 'CHE123456789'],
    ['NO123456789MVA', 'NO', 'NO123456789MVA'],
    ['12-3456789', 'US', '12-3456789'],
  ])('takes %s for %s as %s', (input, country, value) => {
    expect(checkVatId(input, country)).toEqual({ ok: true, value });
  });

  it.each([
    ['DE12345678', 'DE', 'This is not a valid DE VAT ID: it should look like DE123456789.'],
    ['DE1234567890', 'DE', 'This is not a valid DE VAT ID: it should look like DE123456789.'],
    ['AT12345678', 'AT', 'This is not a valid AT VAT ID: it should look like ATU12345678.'],
    ['GR123456789', 'GR', 'This is not a valid Greek VAT ID: it should look like EL123456789.'],
    ['NL123456789', 'NL', 'This is not a valid NL VAT ID: it should look like NL123456789B01.'],
    ['SE123456789012', 'SE', 'This is not a valid SE VAT ID: it should look like SE123456789001.'],
    ['FR123', 'FR', 'This is not a valid FR VAT ID: it should look like FR12345678901.'],
    ['DE123456789', 'AT', 'This is not a valid AT VAT ID: it should look like ATU12345678.'],
    ['CHE12345678', 'CH', 'This is not a valid CH VAT ID: it should look like CHE-123.456.789 MWST.'],
    ['=1+2', 'US', 'Enter the tax number with letters and digits only (3 to 30 characters).'],
  ])('refuses %s for %s', (input, country, message) => {
    expect(checkVatId(input, country)).toEqual({ ok: false, message });
  });

  it('knows which countries have a checked format', () => {
    expect(['DE', 'GR', 'GB', 'CH', 'NO', 'fr'].every(hasVatFormat)).toBe(true);
    expect(hasVatFormat('US')).toBe(false);
  });
});

describe('business details', () => {
  it('needs a company and a country, and names the field of a bad VAT ID', () => {
    expect(
      BusinessDetailsSchema.safeParse({ company_name: 'Acme', country: 'de', vat_id: 'de123456789' }).data,
    ).toEqual({
      company_name: 'Acme',
      country: 'DE',
      vat_id: 'DE123456789',
      address_line: null,
      city: null,
      postal_code: null,
    });
    const bad = BusinessDetailsSchema.safeParse({ company_name: 'Acme', country: 'DE', vat_id: 'DE1' });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['vat_id', 'This is not a valid DE VAT ID: it should look like DE123456789.'],
    ]);
    expect(BusinessDetailsSchema.safeParse({ company_name: ' ', country: 'DE' }).error?.issues[0]?.path).toEqual([
      'company_name',
    ]);
    expect(BusinessDetailsSchema.safeParse({ company_name: 'Acme', country: 'ZZ' }).error?.issues[0]?.message).toBe(
      'Choose the country.',
    );
  });
});
