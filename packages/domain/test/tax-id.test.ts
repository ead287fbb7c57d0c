import { assertDocumentTypeFits, parseTaxId, ValidationError } from '../src';
import { validTaxId } from '../testing';

describe('tax ids (CUIT/CUIL)', () => {
  it('accepts dashes and spaces and returns 11 digits', () => {
    expect(parseTaxId('20-12345678-6')).toBe('20123456786');
    expect(parseTaxId(' 30 71234567 1 ')).toBe('30712345671');
  });

  it('rejects a wrong check digit, a wrong length, an unknown prefix, a non-string and separators other than dashes and spaces', () => {
    for (const input of ['20123456787', '2012345678', '99123456786', 12345678901, '20\t123456786', '\n20123456786']) {
      expect(() => parseTaxId(input)).toThrow(ValidationError);
    }
  });

  it('finds a valid number for every builder prefix', () => {
    for (const prefix of ['20', '23', '27', '30', '33'] as const) expect(parseTaxId(validTaxId(prefix))).toHaveLength(11);
  });

  it('refuses a company prefix as CUIL but accepts it as CUIT', () => {
    const company = validTaxId('30');
    expect(() => assertDocumentTypeFits(company, 'CUIL')).toThrow(ValidationError);
    expect(() => assertDocumentTypeFits(company, 'CUIT')).not.toThrow();
  });
});
