import { ExactAmount, jsonAmount, jsonText, parseExactJson } from '../src';

describe('amounts in JSON text', () => {
  it('writes a sum past what a double holds with every digit, as a JSON number', () => {
    expect(jsonText({ balance: jsonAmount(94999999999999905n) })).toBe('{"balance":949999999999999.05}');
  });

  it('keeps amounts a double holds as plain numbers', () => {
    expect(jsonText({ amount: jsonAmount(123456n), items: [jsonAmount(-5n)] })).toBe('{"amount":1234.56,"items":[-0.05]}');
  });

  it("never turns a caller's text into a number or breaks the JSON around it: the mark never leaves jsonText", () => {
    const total = jsonAmount(94999999999999905n);
    // Whatever the mark is, it is in no output: a plain JSON.stringify (a log line) writes the nearest double.
    expect(JSON.stringify({ total })).toBe('{"total":949999999999999}');
    const texts = ['\u0000amount:5', '"amount-:5', 'amount-00:5', '"amount:5"', '\\"amount:5\\"'];
    const written = jsonText({ texts, total })!;
    expect(written).toBe(`{"texts":${JSON.stringify(texts)},"total":949999999999999.05}`);
    expect(jsonText(parseExactJson(written))).toBe(written);
    expect(() => new ExactAmount('5,"x":1')).toThrow(RangeError);
  });

  it('reads back what it wrote, every digit of a sum kept, and writes it out again the same', () => {
    const written = jsonText({ settlement: { amount: jsonAmount(7036874417766401n), cbu: '0170099220000067797370', count: 12, share: 0.5 } })!;
    expect(written).toBe('{"settlement":{"amount":70368744177664.01,"cbu":"0170099220000067797370","count":12,"share":0.5}}');
    expect(jsonText(parseExactJson(written))).toBe(written);
    expect(parseExactJson('{"n":[1.5,-2,"9007199254740993"]}')).toEqual({ n: [1.5, -2, '9007199254740993'] });
  });
});
