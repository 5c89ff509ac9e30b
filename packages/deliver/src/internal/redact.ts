/**
 * Secrets are redacted by what they are: the values of a destination's settings declared secret
 * (and, for a URL, the user and password inside it), wherever they appear in a text. The masking
 * itself, and its mark, are `@orgreport/api-core/redact`'s: this module only says what to look for.
 */
import { maskSecretsInText } from '@orgreport/api-core/redact';

/** Fragments shorter than this are not searched for: they would blank out ordinary words. */
const MIN_FRAGMENT = 4;

/** The strings a secret value may appear as in a message: itself and, for a URL, its user and password (raw and decoded). */
export function secretFragments(value: string): string[] {
  const fragments = new Set<string>([value]);
  if (URL.canParse(value)) {
    const url = new URL(value);
    for (const part of [url.password, url.username]) {
      if (part === '') continue;
      fragments.add(part);
      try {
        fragments.add(decodeURIComponent(part));
      } catch {
        // A malformed escape: the raw form is enough.
      }
    }
  }
  return [...fragments].filter((f) => f.length >= MIN_FRAGMENT).sort((a, b) => b.length - a.length);
}

/** A function that masks every fragment of `secrets` in a text (and any credential), longest first. */
export function redactor(secrets: Iterable<string>): (text: string) => string {
  const fragments = [...new Set([...secrets].flatMap(secretFragments))].sort((a, b) => b.length - a.length);
  return (text) => maskSecretsInText(text, fragments);
}
