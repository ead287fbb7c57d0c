import { jsonAmount, jsonText, parseExactJson } from '../src';

describe('amounts in JSON text', () => {
  it('writes a sum past what a double holds with every digit, as a JSON number', () => {
    expect(jsonText({ balance: jsonAmount(94999999999999905n) })).toBe('{"balance":949999999999999.05}');
  });

  it('keeps amounts a double holds as plain numbers', () => {
    expect(jsonText({ amount: jsonAmount(123456n), items: [jsonAmount(-5n)] })).toBe('{"amount":1234.56,"items":[-0.05]}');
  });

  it("never turns a caller's text into a number or breaks the JSON around it, whatever it holds", () => {
    const texts = ['\u0000amount:5', '"\u0000amount:5', 'amount:5', '"amount:5"', '\\"amount:5\\"'];
    const body = { texts, total: jsonAmount(94999999999999905n) };
    const written = jsonText(body)!;
    expect(JSON.parse(written)).toEqual({ texts, total: 949999999999999.05 });
    expect(written).toContain('"total":949999999999999.05');
  });

  it('reads back what it wrote, every digit of a sum kept, and writes it out again the same', () => {
    const written = jsonText({ settlement: { amount: jsonAmount(7036874417766401n), cbu: '0170099220000067797370', count: 12, share: 0.5 } })!;
    expect(written).toBe('{"settlement":{"amount":70368744177664.01,"cbu":"0170099220000067797370","count":12,"share":0.5}}');
    expect(jsonText(parseExactJson(written))).toBe(written);
    expect(parseExactJson('{"n":[1.5,-2,"9007199254740993"]}')).toEqual({ n: [1.5, -2, '9007199254740993'] });
  });
});
