/**
 * A server message as a person reads it. The API names the field first for its callers
 * (`password: Password must include a number.`); when a sentence follows, the screen shows the
 * sentence alone. Messages without that shape are shown as they are.
 */
export function messageForPeople(message: string): string {
  return message.replace(/^[a-z][\w.]*: (?=\p{Lu})/u, '');
}
