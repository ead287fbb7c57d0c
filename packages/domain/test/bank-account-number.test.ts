import { composeCvu, isValidAlias, isValidCbuCvu, parseCbuCvu, ValidationError } from '../src';

describe('CBU/CVU and alias', () => {
  it('accepts a real-format CBU with both check digits right', () => {
    expect(isValidCbuCvu('2850590940090418135201')).toBe(true);
  });

  it('rejects a wrong first or second check digit, letters and other lengths', () => {
    for (const value of ['2850590840090418135201', '2850590940090418135202', '285059094009041813520A', '285059094009041813520']) {
      expect(isValidCbuCvu(value)).toBe(false);
    }
    expect(() => parseCbuCvu('123')).toThrow(ValidationError);
  });

  it('composes CVUs that validate, distinct per account number', () => {
    const a = composeCvu('0000003', 1n);
    const b = composeCvu('0000003', 2n);
    expect(isValidCbuCvu(a) && isValidCbuCvu(b)).toBe(true);
    expect(a).not.toBe(b);
    expect(a).toHaveLength(22);
  });

  it('accepts aliases of 6 to 20 letters, digits, dots and dashes only', () => {
    expect(isValidAlias('casa.mar-123')).toBe(true);
    for (const value of ['short', 'a'.repeat(21), 'con espacio', 'ñandu.pago']) expect(isValidAlias(value)).toBe(false);
  });
});
