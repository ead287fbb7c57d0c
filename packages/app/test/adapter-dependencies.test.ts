import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const PACKAGES = path.join(__dirname, '..', '..');
const ADAPTERS = ['adapters-bank', 'adapters-http', 'adapters-postgres'];
/** A workspace package named anywhere in a source (import, require, import(), a string): only the domain is fine. */
const OTHER_WORKSPACE_PACKAGE = /['"`](@rcs\/(?!domain(?:\/testing)?['"`])[^'"`]*)['"`]/g;

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
  });
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * Adapters meet only through the domain's ports, and the app wires them together: an adapter that reached into
 * another would tie their releases and let one's internals leak into the other's callers.
 */
describe.each(ADAPTERS)('%s', (adapter) => {
  const root = path.join(PACKAGES, adapter);

  it('declares the domain as its only workspace dependency', () => {
    const { dependencies = {} } = readJson(path.join(root, 'package.json'));
    expect(Object.keys(dependencies).filter((name) => name.startsWith('@rcs/'))).toEqual(['@rcs/domain']);
  });

  it('builds against the domain project alone', () => {
    const { references = [] } = readJson(path.join(root, 'tsconfig.json'));
    expect(references.map((reference: { path: string }) => reference.path)).toEqual(['../domain']);
  });

  it('names no other adapter nor the app in its sources and tests', () => {
    const offenders = ['src', 'testing', 'test'].flatMap((dir) =>
      sources(path.join(root, dir)).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(OTHER_WORKSPACE_PACKAGE)].map((match) => `${path.relative(root, file)}: ${match[1]}`),
      ),
    );
    expect(offenders).toEqual([]);
  });
});
