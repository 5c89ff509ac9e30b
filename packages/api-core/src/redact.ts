/**
 * Secret redaction by what is secret, never by what a field's name looks like:
 * - the fields the API documents as holding secrets ({@link SECRET_FIELDS}: a custom model's `apiKey`,
 *   its `extraHeaders` and its cloud credential export) are replaced whole by a redaction mark;
 * - a string that is a credential (a bearer token, `sk-...`, a GitHub or Slack token, an AWS key id,
 *   a JWT) is replaced by a mark, and one embedded in free text (a hook command, guidance text, a
 *   rationale) is masked in place;
 * - literal secrets the caller names (the configured API key, the SMTP password) are masked wherever
 *   they occur, whatever the server echoed back.
 * A boolean policy such as `restrictApiKeyCreationToManagers` is not a secret and stays visible.
 */
import { createHash, randomBytes } from 'node:crypto';

/** The mark that stands in for a secret. */
export const REDACTED = '[redacted]';

/** A tree of field names; `true` marks a secret field, `[]` the items of an array. */
export interface SecretFieldTree {
  [field: string]: SecretFieldTree | true;
}

/**
 * The fields that hold secrets, from the object that has them (at any depth): `customModels[].apiKey`
 * (docs/org-api.md: "a secret"), `customModels[].extraHeaders` (the HTTP headers sent to the model's
 * provider, where its credentials travel) and `customModels[].cloudHosted.cloudCredentialExport`
 * (the credentials handed to a cloud provider).
 */
export const SECRET_FIELDS: SecretFieldTree = {
  customModels: { '[]': { apiKey: true, extraHeaders: true, cloudHosted: { cloudCredentialExport: true } } },
};

/** The entry of `tree` for `field` (own entries only: `constructor` is no field of the tree). */
function fieldOf(tree: SecretFieldTree | null, field: string): SecretFieldTree | true | undefined {
  return tree !== null && Object.hasOwn(tree, field) ? tree[field] : undefined;
}

/** True when the path of field names (`[]` for array items) ends at a secret field of {@link SECRET_FIELDS}. */
export function isSecretField(path: ReadonlyArray<string>): boolean {
  for (let from = 0; from < path.length; from++) {
    let node: SecretFieldTree | true | undefined = SECRET_FIELDS;
    for (let i = from; i < path.length && node !== undefined && node !== true; i++)
      node = fieldOf(node, path[i]!);
    if (node === true) return true;
  }
  return false;
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

/** Credential formats inside free text (a word boundary before each, so `task-force` is no `sk-` key). */
const EMBEDDED_SECRET_RE =
  /\b(?:Bearer\s+[A-Za-z0-9._~+/=-]{8,}|sk-[A-Za-z0-9_-]{8,}|(?:ghp|gho|ghs|github_pat)_[A-Za-z0-9_]{8,}|xox[abposr]-[A-Za-z0-9-]{2,}|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)/g;
// A cheap pre-test: most strings hold none of these beginnings.
const EMBEDDED_HINT_RE = /Bearer|sk-|gh[pos]_|github_pat_|xox|AKIA|eyJ/;

/** `text` with every credential embedded in it, and every literal secret, masked in place. */
export function maskSecretsInText(text: string, literals: ReadonlyArray<string> = []): string {
  let out = text;
  for (const secret of literals)
    if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  if (!EMBEDDED_HINT_RE.test(out)) return out;
  return out.replace(EMBEDDED_SECRET_RE, (match) =>
    match.startsWith('Bearer') ? `Bearer ${REDACTED}` : REDACTED,
  );
}

export interface RedactOptions {
  /**
   * Turns a secret into a short fingerprint kept in the mark (`[redacted:1a2b3c4d]`), so two values
   * can be compared (a changed secret shows as changed) without being stored. Omit for a plain mark.
   */
  fingerprint?: (secret: string) => string;
  /** Values masked wherever they occur in a string (the configured API key, the SMTP password). */
  literals?: ReadonlyArray<string>;
  /** Where `value` sits, as field names from its root (`[]` for array items): a part of a larger value. */
  at?: ReadonlyArray<string>;
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

/**
 * A secret field's value with every value inside it marked: an object (such as `extraHeaders`)
 * keeps its keys, so the value keeps its type; booleans are no secrets.
 */
function markAll(value: unknown, options: RedactOptions): unknown {
  if (isRedactionMark(value) || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((v) => markAll(v, options));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, k, {
        value: markAll(v, options),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return mark(value, options);
}

function mark(value: unknown, options: RedactOptions): unknown {
  if (value === null || value === undefined || value === '') return value;
  if (!options.fingerprint) return REDACTED;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `[redacted:${options.fingerprint(text)}]`;
}

/**
 * `value` with every secret replaced: the secret fields of {@link SECRET_FIELDS} and strings that are
 * credentials by a mark, credentials inside free text and the `literals` masked in place. The input
 * is never changed: each object or array on the path to a secret is copied, and parts that hold no
 * secret are returned as they are (so a value without secrets comes back itself).
 *
 * @example
 * redactSecrets({ customModels: [{ id: 'm', apiKey: 'abc' }] }) // { customModels: [{ id: 'm', apiKey: '[redacted]' }] }
 */
export function redactSecrets<T>(value: T, options: RedactOptions = {}): T {
  const literals = options.literals ?? [];
  // `fields`: where the walk stands in SECRET_FIELDS (null: outside any secret-bearing object).
  const walk = (v: unknown, fields: SecretFieldTree | null): unknown => {
    if (typeof v === 'string') {
      if (isRedactionMark(v)) return v;
      if (looksLikeSecret(v)) return mark(v, options);
      return maskSecretsInText(v, literals);
    }
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      const items = fieldOf(fields, '[]');
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const redacted = walk(v[i], items !== undefined && items !== true ? items : null);
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
      const node = fieldOf(fields, k) ?? fieldOf(SECRET_FIELDS, k);
      const redacted = node === true ? markAll(child, options) : walk(child, node ?? null);
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
  let start: SecretFieldTree | null = null;
  for (const k of options.at ?? []) {
    const node: SecretFieldTree | true | undefined = fieldOf(start, k) ?? fieldOf(SECRET_FIELDS, k);
    if (node === true) return markAll(value, options) as T;
    start = node ?? null;
  }
  return walk(value, start) as T;
}

/** Replaces every occurrence of the given secrets (an API key, say) and every credential in a text, for logs and messages. */
export function scrubText(text: string, secrets: ReadonlyArray<string | undefined>): string {
  return maskSecretsInText(
    text,
    secrets.filter((s): s is string => typeof s === 'string'),
  ).replace(/(Bearer\s+)(?!\[redacted)[^\s"',)]+/gi, `$1${REDACTED}`);
}
