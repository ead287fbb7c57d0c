import { ValidationError } from './domain-error';

/**
 * A name as stored: without the spaces around it, and refused (400 validation naming the member) when nothing is
 * left, as a name of spaces alone would be listed and sent on as if the integrator had given none.
 */
export function trimmedName(text: string, member: string): string {
  const trimmed = text.trim();
  if (trimmed === '') throw ValidationError.of(member, 'must not be blank');
  return trimmed;
}
