import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const FORBIDDEN = /from ['"](express|knex|pg|inversify|class-validator|class-transformer|jsonwebtoken|pino|node-cron|@rcs\/adapters-[a-z-]+|@rcs\/app|@electric-sql\/.*)['"]/;
const CLOCK = /new Date\(\)|Date\.now\(\)/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
  });
}

describe('domain dependency rule', () => {
  const files = sources(path.join(__dirname, '..', 'src'));

  it('imports no framework, driver or adapter', () => {
    const offenders = files.filter((file) => FORBIDDEN.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('never reads the clock itself', () => {
    const offenders = files.filter((file) => CLOCK.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
