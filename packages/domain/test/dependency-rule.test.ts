import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.join(__dirname, '..');
const CLOCK = /new Date\(\)|Date\.now\(\)/;

interface ModuleReference {
  readonly specifier: string;
  /** Loaded by a `require` or `import()` call: at run time, where no import statement shows it. */
  readonly dynamic: boolean;
}

/** Every module a source names: import and export declarations, `import x = require()`, require/import() calls, import types. */
function moduleReferences(fileName: string, source: string): ModuleReference[] {
  const found: ModuleReference[] = [];
  const add = (node: ts.Node | undefined, dynamic: boolean) => {
    if (node && ts.isStringLiteralLike(node)) found.push({ specifier: node.text, dynamic });
    else if (node) found.push({ specifier: node.getText(), dynamic });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier, false);
    else if (ts.isExternalModuleReference(node)) add(node.expression, true);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, false);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      add(node.arguments[0], true);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true));
  return found;
}

/** What is wrong with one domain file's references to other modules, one line each. */
function violations(relativeFile: string, source: string): string[] {
  return moduleReferences(relativeFile, source).flatMap(({ specifier, dynamic }) => {
    if (dynamic) return [`${relativeFile}: loads ${specifier} at run time`];
    if (specifier.startsWith('./') || specifier.startsWith('../')) return [];
    return [`${relativeFile}: imports ${specifier}`];
  });
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
  });
}

describe('domain dependency rule', () => {
  const files = ['src', 'testing'].flatMap((dir) => sources(path.join(ROOT, dir))).map((file) => path.relative(ROOT, file).split(path.sep).join('/'));

  // An allowlist of one kind, relative imports: a package or built-in nobody thought to ban is refused like any other.
  it('lets domain files import other domain files by relative path only', () => {
    const offenders = files.flatMap((file) => violations(file, readFileSync(path.join(ROOT, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('refuses any package, not only those a ban list would name', () => {
    expect(violations('src/shared/money.ts', "import { z } from 'zod';")).toEqual(['src/shared/money.ts: imports zod']);
  });

  it('refuses type-only imports, re-exports and import types of packages too', () => {
    const source = "import type { Request } from 'express';\nexport * from 'knex';\nlet pool: import('pg').Pool;";
    expect(violations('src/a.ts', source)).toEqual(['src/a.ts: imports express', 'src/a.ts: imports knex', 'src/a.ts: imports pg']);
  });

  it('refuses require and import() even of a relative path', () => {
    const source = "const a = require('./a');\nimport b = require('../b');\nconst c = await import('./c');";
    expect(violations('src/x.ts', source)).toEqual(['src/x.ts: loads ./a at run time', 'src/x.ts: loads ../b at run time', 'src/x.ts: loads ./c at run time']);
  });

  it('refuses Node built-ins too, in the fakes as in the use cases: nothing travels with the async flow', () => {
    const source = "import { AsyncLocalStorage } from 'node:async_hooks';";
    expect(violations('testing/in-memory/in-memory-unit-of-work.ts', source)).toEqual([
      'testing/in-memory/in-memory-unit-of-work.ts: imports node:async_hooks',
    ]);
  });

  it('never reads the clock itself', () => {
    const offenders = files.filter((file) => file.startsWith('src/') && CLOCK.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  // shared/ is what every context builds on: one import of a context from it would make every context depend on all.
  it('lets shared/ import only from shared/', () => {
    const offenders = files
      .filter((file) => file.startsWith('src/shared/'))
      .flatMap((file) =>
        moduleReferences(file, readFileSync(path.join(ROOT, file), 'utf8'))
          .map(({ specifier }) => specifier)
          .filter((specifier) => !(specifier.startsWith('.') && path.posix.join(path.posix.dirname(file), specifier).startsWith('src/shared/')))
          .map((specifier) => `${file}: imports ${specifier}`),
      );
    expect(offenders).toEqual([]);
  });
});
