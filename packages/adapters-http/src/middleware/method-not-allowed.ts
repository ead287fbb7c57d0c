import type { RequestHandler, Router } from 'express';
import { problemOf, sendProblem } from './problem';

/** What this needs of Express's router layers: their path matching and their route's methods (GET brings HEAD). */
interface RouteLayer {
  readonly route?: { _methods(): string[] };
  match(path: string): unknown;
}

/** The methods `routers`' routes serve on `path`, sorted, each once; none for a path they do not know. */
function methodsServing(routers: readonly Router[], path: string): string[] {
  const methods = new Set<string>();
  for (const router of routers) {
    for (const layer of (router as unknown as { stack: readonly RouteLayer[] }).stack) {
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
    res.setHeader('Allow', allowed.join(', '));
    sendProblem(res, problemOf('method-not-allowed', `${req.method} is not served on ${req.baseUrl}${req.path}; it takes ${allowed.join(', ')}`));
  };
}
