/**
 * Secret redaction: a value under a key that names a key, secret, token, password or credential
 * (`apiKey`, `clientSecret`, `Authorization`, ...) or a string that looks like a bearer token is
 * replaced by a redaction mark before anything is written, shown or logged.
 */
import { createHash, randomBytes } from 'node:crypto';

/** The mark that stands in for a secret. */
export const REDACTED = '[redacted]';

// Words that make a key secret. Plural counts such as `maxOutputTokens` are not secrets.
const SECRET_WORDS = new Set([
  'key',
  'apikey',
  'secret',
  'token',
  'password',
  'passwd',
  'pwd',
  'credential',
  'credentials',
  'authorization',
  'auth',
  'cookie',
  'bearer',
  'jwt',
]);
// Keys made of a secret word that are known to hold no secret.
const NOT_SECRET_KEYS = new Set(['group_key', 'groupkey', 'cloudauthrefresh']);

/** Splits `apiKey`, `api_key`, `x-api-key`, `APIKey` into lower-case words. */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function computeIsSecretKey(key: string): boolean {
  const lower = key.toLowerCase();
  const letters = lower.replace(/[^a-z]/g, '');
  if (NOT_SECRET_KEYS.has(letters) || NOT_SECRET_KEYS.has(lower)) return false;
  return keyWords(key).some((w) => SECRET_WORDS.has(w)) || SECRET_WORDS.has(letters);
}

// Data has few distinct keys (every `/users` row repeats the same 22), so the answer is remembered
// per key; the bound keeps hostile data with endless distinct keys from growing it without limit.
const SECRET_KEY_CACHE_LIMIT = 4096;
const secretKeyCache = new Map<string, boolean>();

/** True when a property named `key` holds a secret (its value must never be shown). */
export function isSecretKey(key: string): boolean {
  const known = secretKeyCache.get(key);
  if (known !== undefined) return known;
  const secret = computeIsSecretKey(key);
  if (secretKeyCache.size >= SECRET_KEY_CACHE_LIMIT) secretKeyCache.clear();
  secretKeyCache.set(key, secret);
  return secret;
}

const SECRET_VALUE_RE =
  /^(?:Bearer\s+\S+|sk-[A-Za-z0-9_-]{8,}|(?:ghp|gho|ghs|github_pat)_[A-Za-z0-9_]{8,}|xox[abposr]-\S+|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.\S*)$/;

// The first character each credential format can start with (after leading white space):
// most strings are rejected by one lookup, before the trim and the regular expression.
const SECRET_FIRST_CHARS = new Set(['B', 's', 'g', 'x', 'A', 'e']);

/** True when a string looks like a credential whatever key it sits under (bearer tokens, JWTs, common key formats). */
export function looksLikeSecret(value: string): boolean {
  if (value.length < 6) return false; // the shortest format is `xoxa-` and one character
  const first = value[0]!;
  if (!SECRET_FIRST_CHARS.has(first) && !/\s/.test(first)) return false;
  return SECRET_VALUE_RE.test(value.trim());
}

export interface RedactOptions {
  /**
   * Turns a secret into a short fingerprint kept in the mark (`[redacted:1a2b3c4d]`), so two values
   * can be compared (a changed secret shows as changed) without being stored. Omit for a plain mark.
   */
  fingerprint?: (secret: string) => string;
}

/** A fingerprint function salted for one run: equal secrets give equal marks within the run only. */
export function secretFingerprinter(
  salt: string = randomBytes(16).toString('hex'),
): (secret: string) => string {
  return (secret) => createHash('sha256').update(salt).update('\0').update(secret).digest('hex').slice(0, 8);
}

/** True when a value is a redaction mark. */
export function isRedactionMark(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.startsWith('[redacted') &&
    (value === REDACTED || /^\[redacted:[0-9a-f]{8}\]$/.test(value))
  );
}

function mark(value: unknown, options: RedactOptions): unknown {
  if (value === null || value === undefined || value === '') return value;
  if (!options.fingerprint) return REDACTED;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `[redacted:${options.fingerprint(text)}]`;
}

/**
 * `value` with every secret replaced by a redaction mark: values under secret keys (whole objects and
 * arrays included) and strings that look like credentials anywhere. The input is never changed: each
 * object or array on the path to a secret is copied, and parts that hold no secret are returned as
 * they are (so a value without secrets comes back itself, at the cost of one read of it).
 *
 * @example
 * redactSecrets({ customModels: [{ id: 'm', apiKey: 'abc' }] }) // { customModels: [{ id: 'm', apiKey: '[redacted]' }] }
 */
export function redactSecrets<T>(value: T, options: RedactOptions = {}): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return looksLikeSecret(v) && !isRedactionMark(v) ? mark(v, options) : v;
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const redacted = walk(v[i]);
        if (redacted !== v[i]) {
          copy ??= v.slice();
          copy[i] = redacted;
        }
      }
      return copy ?? v;
    }
    let copy: Record<string, unknown> | undefined;
    for (const k of Object.keys(v)) {
      const child = (v as Record<string, unknown>)[k];
      const redacted =
        isSecretKey(k) && typeof child !== 'number' && typeof child !== 'boolean' && !isRedactionMark(child)
          ? mark(child, options)
          : walk(child);
      if (redacted !== child) {
        copy ??= { ...v };
        // defineProperty, not assignment: a parsed `__proto__` key must stay a plain property.
        Object.defineProperty(copy, k, {
          value: redacted,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return copy ?? v;
  };
  return walk(value) as T;
}

/** Replaces every occurrence of the given secrets (an API key, say) in a text, for logs and error messages. */
export function scrubText(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out.replace(/(Bearer\s+)(?!\[redacted)[^\s"',)]+/gi, `$1${REDACTED}`);
}
