import type { Request, RequestHandler, Response, Router } from 'express';
import { isPattern, layersOf } from '../routes/router-layers';
import { problemOf, sendProblem } from './problem';

/** The methods `routers`' routes serve on `path`, sorted, each once; none for a path they do not know. */
function methodsServing(routers: readonly Router[], path: string): string[] {
  const methods = new Set<string>();
  for (const router of routers) {
    for (const layer of layersOf(router)) {
      if (layer.route && layer.match(path)) for (const method of layer.route._methods()) methods.add(method);
    }
  }
  return [...methods].sort();
}

/**
 * 405 method-not-allowed with an Allow header for a request whose path one of `routers`' routes serves, with other
 * methods; any other request goes on (an unknown path stays 404). Mount it where `routers` are mounted, after them:
 * a request reaching it matched none of their routes.
 */
export function methodNotAllowed(routers: readonly Router[]): RequestHandler {
  return (req, res, next) => {
    const allowed = methodsServing(routers, req.path);
    if (allowed.length === 0) return next();
    refuse(req, res, allowed);
  };
}

function refuse(req: Request, res: Response, allowed: readonly string[]): void {
  res.setHeader('Allow', allowed.join(', '));
  sendProblem(res, problemOf('method-not-allowed', `${req.method} is not served on ${req.baseUrl}${req.path}; it takes ${allowed.join(', ')}`));
}

/** The methods served on each path that `routers`' routes write out whole, without a parameter (lower case). */
function literalPaths(routers: readonly Router[]): Map<string, string[]> {
  const paths = new Map<string, string[]>();
  for (const layer of routers.flatMap(layersOf)) {
    const path = layer.route?.path;
    if (typeof path !== 'string' || isPattern(path)) continue;
    paths.set(path.toLowerCase(), [...new Set([...(paths.get(path.toLowerCase()) ?? []), ...layer.route!._methods()])].sort());
  }
  return paths;
}

/**
 * A path a route writes out whole (/receivables/batches) answers for itself, before a route with a parameter in its
 * place (/receivables/:id) takes it for an id: another method is 405 method-not-allowed (not an id's 400), and
 * OPTIONS lists its own methods as Express lists a path's (not those of /:id too). Matched as Express matches it,
 * case-insensitive and with or without a trailing slash. Mount it before `routers`, once they have their routes.
 */
export function literalPathsFirst(routers: readonly Router[]): RequestHandler {
  let literal: Map<string, string[]> | undefined;
  return (req, res, next) => {
    literal ??= literalPaths(routers);
    const allowed = literal.get(req.path.toLowerCase().replace(/(.)\/$/, '$1'));
    if (allowed === undefined || allowed.includes(req.method)) return next();
    if (req.method !== 'OPTIONS') return refuse(req, res, allowed);
    res.setHeader('Allow', allowed.join(', '));
    res.send(allowed.join(', '));
  };
}
