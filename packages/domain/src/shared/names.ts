import { ValidationError } from './domain-error';

/**
 * Characters a reader sees nothing of, for a regular expression's character class: controls, format characters
 * (U+200B, U+202E), separators and white space, those Unicode says render as nothing (U+034F, the Hangul fillers,
 * variation selectors), and the blank braille cell.
 */
export const INVISIBLE = String.raw`\p{C}\p{Z}\s\p{Default_Ignorable_Code_Point}\u2800`;

const BLANK = new RegExp(`^[${INVISIBLE}]*$`, 'u');

/**
 * A name as stored: without the spaces around it, and refused (400 validation naming the member) when nothing
 * visible is left, as such a name would be listed and sent on as if the integrator had given none.
 */
export function trimmedName(text: string, member: string): string {
  const trimmed = text.trim();
  if (BLANK.test(trimmed)) throw ValidationError.of(member, 'must not be blank');
  return trimmed;
}
