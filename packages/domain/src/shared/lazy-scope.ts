/** How an adapter makes each member of a scope from what its transaction holds (`context`). */
export type ScopeMakers<Context, Scope> = { readonly [K in keyof Scope]: (context: Context) => Scope[K] };

const CONTEXT = Symbol('scope context');

/**
 * Scopes whose members are made on first access, then kept: a transaction builds only the repositories its work
 * touches, not every one the scope could hold. A member once made is an own property of its scope, so
 * `Object.keys(tx)` lists what a transaction built.
 */
export function lazyScope<Context, Scope extends object>(makers: ScopeMakers<Context, Scope>): (context: Context) => Scope {
  // The getters live on one prototype per adapter, so a scope costs one object however many members it may hold.
  const prototype = {};
  for (const key of Object.keys(makers) as Array<keyof Scope & string>) {
    Object.defineProperty(prototype, key, {
      get(this: { [CONTEXT]: Context }) {
        const member = makers[key](this[CONTEXT]);
        Object.defineProperty(this, key, { value: member, enumerable: true });
        return member;
      },
    });
  }
  return (context) => Object.assign(Object.create(prototype) as Scope, { [CONTEXT]: context });
}
