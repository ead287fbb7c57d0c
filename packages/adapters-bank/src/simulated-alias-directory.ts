import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { composeCvu, isValidAlias, isValidCbuCvu } from '@rcs/domain';
import { ArgentineEntityDirectory } from './bank-entity-directory';
import { MAGIC_DESTINATIONS } from './simulated-payouts';
import { answerLate, readBody, sendJson } from './simulator-http';

/** Words in an alias (any letter case) that change how the simulator resolves it. */
export const MAGIC_ALIAS_WORDS = {
  UNKNOWN: 'sim-unknown',
  DOWN: 'sim-down',
  TIMEOUT: 'sim-timeout',
  /** Resolves to MAGIC_DESTINATIONS.REJECTED. */
  REJECT: 'sim-reject',
  /** Resolves to MAGIC_DESTINATIONS.LATE. */
  LATE: 'sim-late',
} as const;

/** Entity codes an alias's account is drawn from, so resolutions name a few real banks and wallets. */
const ALIAS_ENTITIES = ['0000003', '0000007', '0070999', '0720000', '2850590', '1430001'];

/** Outside aliases remembered as held; past this many the oldest is forgotten (a simulator's memory, not a registry's). */
const OUTSIDE_ALIASES_KEPT = 100_000;

export interface AliasDeskOptions {
  readonly hangMs: number;
  readonly hanging: Set<NodeJS.Timeout>;
}

/**
 * The account directory every bank answers aliases from, simulated. An alias registered for a CVU (PUT) names it;
 * any other resolves to an outside account derived from the alias, which from then on holds it: registering it is
 * refused (409), as the real directory refuses an alias some bank's account has. So an outside world comes into
 * being as it is asked about, and an alias nobody asked about is free. One alias per CVU: registering another
 * releases the first.
 */
export function aliasDesk(options: AliasDeskOptions) {
  const entities = new ArgentineEntityDirectory();
  const registered = new Map<string, string>();
  const aliasOfCvu = new Map<string, string>();
  const outside = new Set<string>();

  /** Answers a request whose alias says the provider is down (503) or slow (503 after the hang): true if it did. */
  function misbehaved(res: ServerResponse, word: string): boolean {
    if (word.includes(MAGIC_ALIAS_WORDS.DOWN)) sendJson(res, 503, { error: 'provider down (simulated)' });
    else if (word.includes(MAGIC_ALIAS_WORDS.TIMEOUT)) answerLate(options.hanging, options.hangMs, () => sendJson(res, 503, { error: 'too late' }));
    else return false;
    return true;
  }

  /** The outside account an unregistered alias names, or undefined when no account has it. */
  function outsideAccount(word: string): string | undefined {
    if (word.includes(MAGIC_ALIAS_WORDS.UNKNOWN)) return undefined;
    if (word.includes(MAGIC_ALIAS_WORDS.REJECT)) return MAGIC_DESTINATIONS.REJECTED;
    if (word.includes(MAGIC_ALIAS_WORDS.LATE)) return MAGIC_DESTINATIONS.LATE;
    const digest = createHash('sha256').update(word).digest();
    return composeCvu(ALIAS_ENTITIES[digest[0] % ALIAS_ENTITIES.length], digest.readBigUInt64BE(1) % 9_000_000_000_000n);
  }

  function resolve(res: ServerResponse, alias: string): void {
    const word = alias.toLowerCase();
    const ours = registered.get(word);
    if (ours) return sendJson(res, 200, { alias, cbuCvu: ours, holderName: null, holderTaxId: null, entity: entities.entityOf(ours) });
    if (misbehaved(res, word)) return;
    const cbuCvu = outsideAccount(word);
    if (cbuCvu === undefined) return sendJson(res, 404, { error: 'no account has this alias' });
    remember(word);
    sendJson(res, 200, { alias, cbuCvu, holderName: `Holder of ${alias}`, holderTaxId: null, entity: entities.entityOf(cbuCvu) });
  }

  function remember(word: string): void {
    outside.delete(word);
    outside.add(word);
    if (outside.size > OUTSIDE_ALIASES_KEPT) outside.delete(outside.values().next().value!);
  }

  async function register(req: IncomingMessage, res: ServerResponse, alias: string): Promise<void> {
    let body: { cbuCvu?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      return sendJson(res, 400, { error: 'body must be JSON' });
    }
    const { cbuCvu } = body;
    if (typeof cbuCvu !== 'string' || !isValidCbuCvu(cbuCvu)) return sendJson(res, 400, { error: 'cbuCvu must be a valid CBU/CVU' });
    if (!isValidAlias(alias)) return sendJson(res, 400, { error: "an alias is 6 to 20 letters, digits, '.' or '-'" });
    const word = alias.toLowerCase();
    const holder = registered.get(word);
    if (holder === undefined && misbehaved(res, word)) return;
    if ((holder ?? cbuCvu) !== cbuCvu || (holder === undefined && outside.has(word))) {
      return sendJson(res, 409, { error: 'another account has this alias' });
    }
    const previous = aliasOfCvu.get(cbuCvu);
    if (previous !== undefined) registered.delete(previous);
    registered.set(word, cbuCvu);
    aliasOfCvu.set(cbuCvu, word);
    sendJson(res, 200, { alias, cbuCvu });
  }

  /** Answers the request if it is one of the desk's; false when the path is not. */
  return async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const match = /^\/v1\/aliases\/([^/]+)$/.exec(path);
    if (!match) return false;
    const alias = decodeURIComponent(match[1]);
    if (req.method === 'GET') resolve(res, alias);
    else if (req.method === 'PUT') await register(req, res, alias);
    else return false;
    return true;
  };
}
