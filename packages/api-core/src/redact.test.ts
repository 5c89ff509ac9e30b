import { describe, expect, it } from 'vitest';
import { isSecretKey, REDACTED, redactSecrets, scrubText, secretFingerprinter } from './redact.ts';

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
});
