import type { RequestHandler, Router } from 'express';
import { isPattern, layersOf } from './router-layers';

/**
 * The first path segment of each of `router`'s routes ('/receivables/:id' gives '/receivables'), or undefined
 * when one of its layers could match other paths (a middleware, a route starting with a parameter or a pattern).
 */
function prefixesOf(router: Router): string[] | undefined {
  const prefixes = new Set<string>();
  for (const layer of layersOf(router)) {
    const path = layer.route?.path;
    if (typeof path !== 'string' || isPattern(path.split('/')[1] ?? '')) return undefined;
    prefixes.add(`/${path.split('/')[1].toLowerCase()}`);
  }
  return [...prefixes];
}

/**
 * `router`, entered only by requests under one of its routes' first segments. Express tries every layer of every
 * router in turn until one matches: a request for the last mounted resource used to walk the routes of all the
 * others, which cost more CPU than authenticating it. Matching stays Express's, case-insensitive like it.
 * Call once the router has all its routes.
 */
export function enteredByPrefix(router: Router): RequestHandler {
  const prefixes = prefixesOf(router);
  if (!prefixes) return router;
  return (req, res, next) => {
    const path = req.path.toLowerCase();
    return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)) ? router(req, res, next) : next();
  };
}
