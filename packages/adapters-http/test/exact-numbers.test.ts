import { ValidationError } from '@rcs/domain';
import { assertNumbersExact } from '../src/middleware/exact-numbers';

describe('number literals a body may hold', () => {
  it.each([
    '{"amount":1.5}',
    '{"amount":1.100}',
    '{"amount":1e2}',
    '{"amount":-0.01}',
    '{"id":9007199254740991}',
    '{"amount":9999999999999.99}',
    '[0, 0.0, 1E-2]',
  ])('takes %s: the parse gives that value', (body) => expect(() => assertNumbersExact(body)).not.toThrow());

  it.each(['{"amount":1.0000000000000001}', '{"id":9007199254740993}', '{"amount":0.1234567890123456789}', '{"amount":1e400}', '{"amount":1e-400}'])(
    'refuses %s as 400 validation: the parse would give another value',
    (body) => expect(() => assertNumbersExact(body)).toThrow(ValidationError),
  );

  it('never reads digits inside strings, escaped quotes included', () => {
    expect(() => assertNumbersExact('{"cbuCvu":"0000003100000000000017","note":"say \\"12345678901234567890\\" 1.00000000000000001"}')).not.toThrow();
  });
});
