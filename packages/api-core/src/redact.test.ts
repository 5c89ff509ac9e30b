import { describe, expect, it } from 'vitest';
import {
  isSecretKey,
  looksLikeSecret,
  REDACTED,
  redactSecrets,
  scrubText,
  secretFingerprinter,
} from './redact.ts';

describe('secret redaction', () => {
  it('recognises keys that name a key, secret, token, password or credential', () => {
    for (const k of [
      'apiKey',
      'api_key',
      'x-api-key',
      'APIKey',
      'clientSecret',
      'accessToken',
      'password',
      'Authorization',
      'awsCredentials',
      'privateKey',
    ]) {
      expect(isSecretKey(k), k).toBe(true);
    }
    for (const k of [
      'maxOutputTokens',
      'thinkingMaxTokens',
      'billable_tokens',
      'group_key',
      'keyboard',
      'model',
      'baseUrl',
      'monkey',
    ]) {
      expect(isSecretKey(k), k).toBe(false);
    }
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
          extraHeaders: { 'X-Api-Key': REDACTED, Accept: 'json' },
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
    const a = redactSecrets({ apiKey: 'one' }, { fingerprint: fp });
    const b = redactSecrets({ apiKey: 'one' }, { fingerprint: fp });
    const c = redactSecrets({ apiKey: 'two' }, { fingerprint: fp });
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

  it('gives the same answer for a key however often it is asked, past the memo bound too', () => {
    for (let round = 0; round < 3; round++) {
      expect(isSecretKey('apiKey')).toBe(true);
      expect(isSecretKey('billable_tokens')).toBe(false);
    }
    // More distinct keys than the memo holds: answers stay right while it is cleared and refilled.
    for (let i = 0; i < 5000; i++) expect(isSecretKey(`field_${i}_token`)).toBe(true);
    expect(isSecretKey('apiKey')).toBe(true);
    expect(isSecretKey('monkey')).toBe(false);
  });

  it('returns a value without secrets itself, and copies only the path to a secret', () => {
    const row = { user_id: 'u1', billable_tokens: 12, languages: ['ts', 'py'], autonomy_ratio: null };
    expect(redactSecrets(row)).toBe(row);
    const page = [row, { user_id: 'u2', extra: { note: 'ok', x_api_key: 'test-key-drift' } }];
    const out = redactSecrets(page);
    expect(out).not.toBe(page);
    expect(out[0]).toBe(row); // no secret: shared
    expect(out[1]).toEqual({ user_id: 'u2', extra: { note: 'ok', x_api_key: REDACTED } });
    expect(page[1]).toEqual({ user_id: 'u2', extra: { note: 'ok', x_api_key: 'test-key-drift' } });
  });

  it('keeps a parsed __proto__ key a plain property when redacting under it', () => {
    const parsed = JSON.parse('{"__proto__": {"token": "test-token-value"}, "a": 1}') as Record<
      string,
      unknown
    >;
    const out = redactSecrets(parsed);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ token: REDACTED });
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
