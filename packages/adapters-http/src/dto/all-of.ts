/** One decorator applying `decorators` in order: a transform, then the check of what it made. */
export const allOf =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const decorator of decorators) decorator(target, key);
  };
