import { ValidationError } from './domain-error';

/** Nothing a reader would see: white space, and characters rendered as nothing (zero-width ones, direction marks, fillers). */
const BLANK = /^[\s\p{Default_Ignorable_Code_Point}]*$/u;

/**
 * A name as stored: without the spaces around it, and refused (400 validation naming the member) when nothing
 * visible is left, as such a name would be listed and sent on as if the integrator had given none.
 */
export function trimmedName(text: string, member: string): string {
  const trimmed = text.trim();
  if (BLANK.test(trimmed)) throw ValidationError.of(member, 'must not be blank');
  return trimmed;
}
