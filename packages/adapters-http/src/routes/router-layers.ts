import type { Router } from 'express';

/** What this service reads of Express's router layers: their path matching and their route's path and methods (GET brings HEAD). */
export interface RouteLayer {
  readonly route?: { readonly path: unknown; _methods(): string[] };
  match(path: string): unknown;
}

/** `router`'s layers, in the order Express tries them. */
export const layersOf = (router: Router): readonly RouteLayer[] => (router as unknown as { stack: readonly RouteLayer[] }).stack;

/** Whether a route's path text matches more than itself: a parameter, a wildcard or an optional part. */
export const isPattern = (path: string): boolean => /[:*?(]/.test(path);
