import { describe, expect, it } from 'vitest';
import {
  isSecretField,
  looksLikeSecret,
  maskSecretsInText,
  REDACTED,
  redactSecrets,
  scrubText,
  secretFingerprinter,
} from './redact.ts';

describe('secret redaction', () => {
  it('knows the secret fields by what they are, not by what their names look like', () => {
    expect(isSecretField(['customModels', '[]', 'apiKey'])).toBe(true);
    expect(isSecretField(['settings', 'customModels', '[]', 'extraHeaders'])).toBe(true);
    expect(isSecretField(['customModels', '[]', 'cloudHosted', 'cloudCredentialExport'])).toBe(true);
    for (const path of [
      ['restrictApiKeyCreationToManagers'],
      ['customModels', '[]', 'maxOutputTokens'],
      ['customModels', '[]', 'cloudHosted', 'cloudAuthRefresh'],
      ['apiKey'],
      ['x_api_key'],
      ['constructor'],
    ]) {
      expect(isSecretField(path), path.join('.')).toBe(false);
    }
  });

  it('keeps a boolean policy named after API keys visible', () => {
    const settings = { restrictApiKeyCreationToManagers: false, accessTokenTtlDays: 30 };
    expect(redactSecrets(settings)).toBe(settings);
  });

  it('redacts a secret inside a nested custom model and keeps everything else', () => {
    const settings = {
      customModels: [
        {
          id: 'm1',
          baseUrl: 'https://llm.example',
          apiKey: 'abc-123-secret',
          maxOutputTokens: 4096,
          extraHeaders: { 'X-Api-Key': 'h1', Accept: 'json' },
        },
      ],
      enableAgentShield: true,
    };
    const out = redactSecrets(settings);
    expect(out).toEqual({
      customModels: [
        {
          id: 'm1',
          baseUrl: 'https://llm.example',
          apiKey: REDACTED,
          maxOutputTokens: 4096,
          extraHeaders: { 'X-Api-Key': REDACTED, Accept: REDACTED },
        },
      ],
      enableAgentShield: true,
    });
    expect(settings.customModels[0]!.apiKey).toBe('abc-123-secret'); // the input is not changed
    expect(JSON.stringify(out)).not.toContain('abc-123-secret');
  });

  it('redacts credential-looking strings under any key', () => {
    expect(redactSecrets({ note: 'Bearer abcdefgh12345', url: 'https://x' })).toEqual({
      note: REDACTED,
      url: 'https://x',
    });
  });

  it('fingerprints secrets so that a change is visible without the value', () => {
    const fp = secretFingerprinter('salt');
    const a = redactSecrets({ apiKey: 'one' }, { fingerprint: fp, at: ['customModels', '[]'] });
    const b = redactSecrets({ apiKey: 'one' }, { fingerprint: fp, at: ['customModels', '[]'] });
    const c = redactSecrets({ apiKey: 'two' }, { fingerprint: fp, at: ['customModels', '[]'] });
    expect(a.apiKey).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
    expect(a.apiKey).toBe(b.apiKey);
    expect(a.apiKey).not.toBe(c.apiKey);
    expect(redactSecrets(a, { fingerprint: fp })).toEqual(a); // marks are never redacted twice
  });

  it('scrubs known secrets and bearer tokens from text', () => {
    expect(scrubText('failed with key K-12345 (Authorization: Bearer K-12345)', ['K-12345'])).toBe(
      `failed with key ${REDACTED} (Authorization: Bearer ${REDACTED})`,
    );
  });

  it('masks credentials embedded in free text in place, and the literal secrets it is given', () => {
    const token = `sk-${'a1B2'.repeat(6)}`;
    const command = `curl -H "Authorization: Bearer ${'x'.repeat(20)}" https://hooks.example/notify?key=${token}`;
    expect(maskSecretsInText(command)).toBe(
      `curl -H "Authorization: Bearer ${REDACTED}" https://hooks.example/notify?key=${REDACTED}`,
    );
    expect(maskSecretsInText('the task-force met at the risk-assessment-2026 review')).toBe(
      'the task-force met at the risk-assessment-2026 review',
    );
    const key = 'org-key-0123456789';
    expect(maskSecretsInText(`ops+${key}@example.com`, [key])).toBe(`ops+${REDACTED}@example.com`);
    const page = { data: [{ user_email: `x${key}@example.com`, rationale: `uses ${token} in CI` }] };
    expect(redactSecrets(page, { literals: [key] })).toEqual({
      data: [{ user_email: `x${REDACTED}@example.com`, rationale: `uses ${REDACTED} in CI` }],
    });
  });

  it('returns a value without secrets itself, and copies only the path to a secret', () => {
    const row = { user_id: 'u1', billable_tokens: 12, languages: ['ts', 'py'], autonomy_ratio: null };
    expect(redactSecrets(row)).toBe(row);
    const drift = { user_id: 'u2', extra: { note: 'ok', x_api_key: 'not-a-secret-shape' } };
    const bearer = { user_id: 'u3', extra: { note: `Bearer ${'t'.repeat(16)}` } };
    const page = [row, drift, bearer];
    const out = redactSecrets(page);
    expect(out).not.toBe(page);
    expect(out[0]).toBe(row); // no secret: shared
    expect(out[1]).toBe(drift); // a name is no secret
    expect(out[2]).toEqual({ user_id: 'u3', extra: { note: REDACTED } });
    expect(page[2]).toEqual(bearer);
  });

  it('keeps a parsed __proto__ key a plain property when redacting under it', () => {
    const parsed = JSON.parse('{"__proto__": {"apiKey": "test-token-value"}, "a": 1}') as Record<
      string,
      unknown
    >;
    const out = redactSecrets(parsed);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ apiKey: 'test-token-value' });
    const models = JSON.parse('{"customModels": [{"__proto__": 1, "apiKey": "k"}]}');
    expect(redactSecrets(models).customModels[0].apiKey).toBe(REDACTED);
  });

  it('recognises credential formats behind leading white space and rejects short or plain strings fast', () => {
    expect(looksLikeSecret('  Bearer abcdefgh12345')).toBe(true);
    expect(looksLikeSecret('\tBearer abcdefgh12345')).toBe(true);
    expect(looksLikeSecret('xoxb-1')).toBe(true); // the shortest format: 6 characters
    expect(looksLikeSecret('xoxb-')).toBe(false);
    expect(looksLikeSecret('typescript')).toBe(false);
    expect(looksLikeSecret('Bearer')).toBe(false);
  });
});
