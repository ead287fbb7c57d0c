import { formatMinor, Money, ValidationError } from '../src';

describe('Money', () => {
  it.each([
    [10, 1000n],
    [10.5, 1050n],
    [0.01, 1n],
    ['12.34', 1234n],
    ['7', 700n],
    ['0.5', 50n],
    ['1.100', 110n],
    ['2.50000', 250n],
    [9999999999999.99, 999999999999999n],
  ])('parses %p exactly into %p minor units', (input, minor) => {
    expect(Money.parse(input).minor).toBe(minor);
  });

  it('round-trips the largest allowed amount through a JSON number', () => {
    const max = Money.parse('9999999999999.99');
    expect(JSON.parse(JSON.stringify({ amount: max.toJSONNumber() })).amount).toBe(9999999999999.99);
    expect(Money.parse(max.toJSONNumber()).equals(max)).toBe(true);
  });

  it.each([[0.001], ['1.234'], ['1.0001'], [0], [-5], ['10000000000000'], ['1e3'], [Number.NaN], [null], ['abc'], ['1.'], [' 1'], ['01'], ['00.5']])(
    'rejects %p instead of rounding or guessing',
    (input) => {
      expect(() => Money.parse(input)).toThrow(ValidationError);
    },
  );

  it('adds and compares without floating point error', () => {
    const sum = Money.parse(0.1).plus(Money.parse(0.2));
    expect(sum.equals(Money.parse(0.3))).toBe(true);
    expect(sum.toDecimalString()).toBe('0.3');
    expect(Money.parse(5).compare(Money.parse('4.99'))).toBe(1);
  });

  it('never goes below zero', () => {
    expect(() => Money.parse(1).minus(Money.parse(2))).toThrow(RangeError);
  });

  it('formats signed minor units for net totals', () => {
    expect(formatMinor(-1050n)).toBe('-10.5');
    expect(formatMinor(7n)).toBe('0.07');
    expect(formatMinor(100n)).toBe('1');
  });
});
