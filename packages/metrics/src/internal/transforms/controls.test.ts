import type { ControlChange } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { CHANGED_REDACTED, controlChanges, diffSettings } from './controls.ts';

describe('settings diff', () => {
  it('diffs nested fields by path', () => {
    expect(
      diffSettings(
        { sessionRetentionDays: 90, modelPolicy: { allowedModelIds: ['a'] }, wikiCloudSync: true },
        { sessionRetentionDays: 30, modelPolicy: { allowedModelIds: ['a', 'b'] }, cloudSessionSync: false },
      ),
    ).toEqual([
      {
        path: 'cloudSessionSync',
        kind: 'added',
        before: null,
        after: 'false',
        redacted: false,
        security: true,
      },
      {
        path: 'modelPolicy.allowedModelIds',
        kind: 'changed',
        before: '["a"]',
        after: '["a","b"]',
        redacted: false,
        security: true,
      },
      {
        path: 'sessionRetentionDays',
        kind: 'changed',
        before: '90',
        after: '30',
        redacted: false,
        security: true,
      },
      {
        path: 'wikiCloudSync',
        kind: 'removed',
        before: 'true',
        after: null,
        redacted: false,
        security: true,
      },
    ]);
  });

  it('shows a changed secret inside a nested custom model as "changed (redacted)"', () => {
    const before = {
      customModels: [{ id: 'm', apiKey: '[redacted:0a1b2c3d]', cloudHosted: { cloudProfile: 'p' } }],
    };
    const after = {
      customModels: [{ id: 'm', apiKey: '[redacted:9f8e7d6c]', cloudHosted: { cloudProfile: 'q' } }],
    };
    expect(diffSettings(before, after)).toEqual([
      {
        path: 'customModels[0].apiKey',
        kind: 'changed',
        before: '[redacted]',
        after: CHANGED_REDACTED,
        redacted: true,
        security: true,
      },
      {
        path: 'customModels[0].cloudHosted.cloudProfile',
        kind: 'changed',
        before: 'p',
        after: 'q',
        redacted: false,
        security: true,
      },
    ]);
  });

  it('never shows a secret that reached it unredacted, at any depth', () => {
    const diffs = diffSettings(
      { customModels: [] },
      {
        customModels: [
          { id: 'm', apiKey: 'test-key-owner', extraHeaders: { Authorization: 'test-token-value' } },
        ],
      },
    );
    expect(diffs).toHaveLength(1);
    expect(diffs[0]!.kind).toBe('added');
    expect(diffs[0]!.after).not.toContain('test-key-owner');
    expect(diffs[0]!.after).not.toContain('test-token-value');
    const nested = diffSettings(
      { customModels: [{ id: 'm', extraHeaders: { 'x-api-key': 'test-key-one' } }] },
      { customModels: [{ id: 'm', extraHeaders: { 'x-api-key': 'test-key-two' } }] },
    );
    expect(nested).toEqual([
      {
        path: 'customModels[0].extraHeaders.x-api-key',
        kind: 'changed',
        before: '[redacted]',
        after: CHANGED_REDACTED,
        redacted: true,
        security: true,
      },
    ]);
  });

  it('shows a policy named after API keys with its before and after, marked security-relevant', () => {
    expect(
      diffSettings(
        { restrictApiKeyCreationToManagers: true, ideAutoConnect: true },
        { restrictApiKeyCreationToManagers: false, ideAutoConnect: false },
      ),
    ).toEqual([
      {
        path: 'ideAutoConnect',
        kind: 'changed',
        before: 'true',
        after: 'false',
        redacted: false,
        security: false,
      },
      {
        path: 'restrictApiKeyCreationToManagers',
        kind: 'changed',
        before: 'true',
        after: 'false',
        redacted: false,
        security: true,
      },
    ]);
  });

  it('masks a token inside free text in place and keeps the rest of the text', () => {
    const token = `sk-${'q7'.repeat(12)}`;
    const [diff] = diffSettings(
      { serviceRouterGuidance: 'route to the fast model' },
      { serviceRouterGuidance: `call the router with ${token} first` },
    );
    expect(diff?.after).toBe('call the router with [redacted] first');
    expect(diff?.security).toBe(false);
  });
});

describe('control changes of a period', () => {
  const user = { id: 'u1', email: 'owner@example.test', name: 'Owner' };
  const changes: ControlChange[] = [
    { revision: 7, updatedAt: '2026-04-01T00:00:00.000Z', user, settings: { sessionRetentionDays: 10 } },
    { revision: 6, updatedAt: '2026-03-31T23:59:59.000Z', user, settings: { sessionRetentionDays: 20 } },
    { revision: 5, updatedAt: '2026-03-01T00:00:00.000Z', user, settings: { sessionRetentionDays: 30 } },
    { revision: 4, updatedAt: '2026-02-01T00:00:00.000Z', user, settings: { sessionRetentionDays: 40 } },
  ];

  it('keeps the revisions updated inside the period, each diffed against the one before it', () => {
    const section = controlChanges(changes, { start: '2026-03-01', end: '2026-03-31' });
    expect(section.changes.map((c) => [c.revision, c.previous_revision])).toEqual([
      [5, 4],
      [6, 5],
    ]);
    expect(section.changes[0]).toMatchObject({
      updated_at: '2026-03-01T00:00:00.000Z',
      user: { id: 'u1', email: 'owner@example.test', name: 'Owner' },
      diffs: [{ path: 'sessionRetentionDays', before: '40', after: '30' }],
    });
    expect(section.current_revision).toBe(6);
  });
});
