import { inexactNumbers } from '../src';

describe('number literals a body may hold', () => {
  it.each([
    '{"amount":1.5}',
    '{"amount":1.100}',
    '{"amount":1e2}',
    '{"amount":-0.01}',
    '{"id":9007199254740991}',
    '{"amount":9999999999999.99}',
    '[0, 0.0, 1E-2]',
  ])('takes %s: the parse gives that value', (body) => expect(inexactNumbers(body)).toEqual([]));

  it.each([
    ['{"amount":1.0000000000000001}', 'amount'],
    ['{"id":9007199254740993}', 'id'],
    ['{"amount":0.1234567890123456789}', 'amount'],
    ['{"amount":1e400}', 'amount'],
    ['{"amount":1e-400}', 'amount'],
    ['1.0000000000000001', 'body'],
  ])('refuses %s, naming %s: the parse would give another value', (body, name) =>
    expect(inexactNumbers(body)).toEqual([{ name, reason: expect.stringMatching(/cannot be read exactly/) }]),
  );

  it('names each inexact number by where it is, through nested objects and arrays', () => {
    const body = '{ "items": [ {"amount": 1}, {"note": "a, b: [c]", "amount": 1.0000000000000001, "x": {"y": [1, 9007199254740993]}} ], "z": 2 }';
    expect(inexactNumbers(body).map((problem) => problem.name)).toEqual(['items[1].amount', 'items[1].x.y[1]']);
  });

  it('never reads digits inside strings, escaped quotes included', () => {
    expect(inexactNumbers('{"cbuCvu":"0000003100000000000017","note":"say \\"12345678901234567890\\" 1.00000000000000001"}')).toEqual([]);
  });
});
