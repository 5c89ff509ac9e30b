import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverAll } from '../deliver.ts';
import { DestinationError, PermanentDeliveryError, RetryableDeliveryError } from '../destination.ts';
import { openLedger } from '../ledger.ts';
import { createDestinations } from '../registry.ts';
import {
  failureOf,
  leakedSecrets,
  reportMessage,
  sendContext,
  sendTo,
  sendWithRetries,
} from '../testing/destination-fixtures.ts';
import { removeScratch, reportDelivery, scratchDir, ticking } from '../testing/fixtures.ts';
import { startTeamsWorkflow, type TestTeams } from '../testing/teams-server.ts';
import { teams } from './teams.ts';

let flow: TestTeams;
/** Every error and log line of the file, and the secrets they must not hold. */
const outputs: unknown[] = [];
const secrets: string[] = [];

beforeEach(async () => {
  flow = await startTeamsWorkflow();
  secrets.push(flow.sig, flow.url);
});
afterEach(() => flow.close());
afterAll(() => {
  expect(leakedSecrets(outputs, secrets)).toEqual([]);
  removeScratch();
});

const settings = () => ({ ORGREPORT_TEAMS_WEBHOOK_URL: flow.url });

async function deliver(target = 'teams', context = sendContext(settings()), message = reportMessage([])) {
  try {
    const receipt = await sendTo(teams, target, message, context);
    outputs.push(...context.lines);
    return receipt;
  } catch (error) {
    outputs.push(error, ...context.lines);
    throw error;
  }
}

describe('teams targets', () => {
  it('reads teams and teams:VARNAME, and labels them by the variable', () => {
    expect(teams.label(teams.parse('teams'))).toBe('teams:ORGREPORT_TEAMS_WEBHOOK_URL');
    expect(teams.label(teams.parse('teams:TEAMS_FINANCE_URL'))).toBe('teams:TEAMS_FINANCE_URL');
    expect(() => teams.parse('teams:finance')).toThrow(/teams target "teams:finance": write teams/);
  });

  it('refuses a URL written in the target without quoting it', () => {
    const error = (() => {
      try {
        teams.parse('teams:https://example.test/workflows/1?sig=test-sig-in-target');
      } catch (e) {
        return e as Error;
      }
      throw new Error('parsed');
    })();
    expect(error).toBeInstanceOf(DestinationError);
    expect(error.message).toMatch(/it is a secret/);
    expect(error.message).not.toContain('test-sig-in-target');
  });
});

describe('teams delivery against a Workflows endpoint', () => {
  it('posts one Adaptive Card: subject, summary, the figures as facts, a button per web link', async () => {
    const context = sendContext(settings(), {
      links: [
        { url: 'https://reports.example.com/acme/2026-10/', label: 'Open the reports' },
        { url: 's3://acme-reports/orgreport/2026-10/', label: 'Stored in S3' },
      ],
    });
    const receipt = await deliver('teams', context);

    expect(receipt).toEqual({ id: 'HTTP 202' });
    expect(flow.refused).toEqual([]);
    expect(flow.cards).toHaveLength(1);
    const [card] = flow.cards;
    expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    expect(card?.['body']).toEqual([
      expect.objectContaining({ type: 'TextBlock', text: 'Acme usage report, October 2026 (team Platform)' }),
      expect.objectContaining({ type: 'TextBlock', text: reportMessage([]).summary }),
      {
        type: 'FactSet',
        facts: [
          { title: 'Active users', value: '182' },
          { title: 'Tool calls', value: '48,210' },
          { title: 'Credits', value: '1,204.5' },
        ],
      },
      expect.objectContaining({
        type: 'TextBlock',
        text: 'Stored in S3: s3://acme-reports/orgreport/2026-10/',
      }),
    ]);
    expect(card?.['actions']).toEqual([
      { type: 'Action.OpenUrl', title: 'Open the reports', url: 'https://reports.example.com/acme/2026-10/' },
    ]);
    expect(context.lines).toEqual(['teams:ORGREPORT_TEAMS_WEBHOOK_URL: card accepted (HTTP 202)']);
  });

  it('reads the URL from the variable a teams:VARNAME target names', async () => {
    const receipt = await deliver('teams:TEAMS_FINANCE_URL', sendContext({ TEAMS_FINANCE_URL: flow.url }));
    expect(receipt.id).toBe('HTTP 202');
    expect(flow.cards).toHaveLength(1);
  });

  it('delivers to a teams:VARNAME target through deliverAll, the variable given among the settings', async () => {
    const ledger = await openLedger(join(scratchDir(), 'ledger.jsonl'), { now: ticking() });
    const lines: string[] = [];
    try {
      const result = await deliverAll([reportDelivery('leads', [], { target: 'teams:TEAMS_LEADS_URL' })], {
        ledger,
        settings: { TEAMS_LEADS_URL: flow.url },
        destinations: createDestinations(),
        log: (line) => lines.push(line),
      });
      outputs.push(result, ...lines);
      expect(result.failed).toEqual([]);
      expect(result.sent.map((s) => [s.label, s.id])).toEqual([['teams:TEAMS_LEADS_URL', 'HTTP 202']]);
    } finally {
      await ledger.close();
    }
    expect(flow.cards).toHaveLength(1);
  });

  it('retries 429 (with its Retry-After) and 502, then delivers once', async () => {
    flow.fail({ status: 429, retryAfter: '3' }, { status: 502 });
    const { receipt, errors } = await sendWithRetries(() => deliver());
    expect(errors.map((e) => [e.constructor, e.retryAfterMs])).toEqual([
      [RetryableDeliveryError, 3000],
      [RetryableDeliveryError, undefined],
    ]);
    expect(errors[0]?.destination).toBe('teams:ORGREPORT_TEAMS_WEBHOOK_URL');
    expect(receipt.id).toBe('HTTP 202');
    expect(flow.cards).toHaveLength(1);
  });

  it('takes a card rejected by the endpoint (400) as permanent, quoting why', async () => {
    await flow.close();
    flow = await startTeamsWorkflow({ maxVersion: '1.3' });
    secrets.push(flow.sig, flow.url);
    const error = await failureOf(() => deliver());
    expect(error).toBeInstanceOf(PermanentDeliveryError);
    expect((error as PermanentDeliveryError).destination).toBe('teams:ORGREPORT_TEAMS_WEBHOOK_URL');
    expect(error.message).toMatch(
      /^HTTP 400: the Workflows endpoint rejected the card; the receiver said: .*version/,
    );
    expect(flow.cards).toEqual([]);
  });

  it('takes a refused signature (401) as permanent, without printing the URL or its signature', async () => {
    const wrong = flow.url.replace(/sig=[^&]+/, 'sig=test-wrong-sig-789');
    secrets.push('test-wrong-sig-789', wrong);
    const error = await failureOf(() =>
      deliver('teams', sendContext({ ORGREPORT_TEAMS_WEBHOOK_URL: wrong })),
    );
    expect(error).toBeInstanceOf(PermanentDeliveryError);
    expect(error.message).toMatch(/^HTTP 401: .*copy the flow's URL into ORGREPORT_TEAMS_WEBHOOK_URL again/);
  });

  it('takes a deleted flow (404) as permanent', async () => {
    const gone = flow.url.replace(/workflows\/[0-9a-f]+/, 'workflows/0000');
    secrets.push(gone);
    const error = await failureOf(() => deliver('teams', sendContext({ ORGREPORT_TEAMS_WEBHOOK_URL: gone })));
    expect(error).toBeInstanceOf(PermanentDeliveryError);
    expect(error.message).toMatch(/^HTTP 404: no flow at that URL/);
  });

  it('takes a card larger than Teams accepts (413) as permanent', async () => {
    const message = reportMessage([], { summary: 'x'.repeat(30_000) });
    const error = await failureOf(() => deliver('teams', sendContext(settings()), message));
    expect(error).toBeInstanceOf(PermanentDeliveryError);
    expect(error.message).toMatch(/^HTTP 413: the card is larger than Teams accepts/);
  });

  it('refuses before sending when the variable is unset or not a usable URL', async () => {
    const unset = await failureOf(() => deliver('teams:TEAMS_NOWHERE', sendContext({})));
    expect(unset).toBeInstanceOf(PermanentDeliveryError);
    expect(unset.message).toBe(
      "TEAMS_NOWHERE is not set: it holds the URL of the channel's Workflows webhook",
    );
    const plain = 'http://teams.example.test/workflows/1?sig=test-plain-sig';
    secrets.push(plain, 'test-plain-sig');
    const insecure = await failureOf(() =>
      deliver('teams', sendContext({ ORGREPORT_TEAMS_WEBHOOK_URL: plain })),
    );
    expect(insecure.message).toMatch(
      /^ORGREPORT_TEAMS_WEBHOOK_URL: http: is accepted only for loopback hosts/,
    );
    expect(flow.refused).toEqual([]);
  });

  it('counts an endpoint that cannot be reached as retryable', async () => {
    await flow.close();
    const error = await failureOf(() => deliver());
    expect(error).toBeInstanceOf(RetryableDeliveryError);
    expect(error.message).toBe('could not reach the receiver (ECONNREFUSED)');
    flow = await startTeamsWorkflow();
  });
});

describe('the Workflows endpoint itself', () => {
  const post = (body: unknown) =>
    fetch(flow.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const card = (content: Record<string, unknown>) => ({
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content }],
  });

  it('accepts a minimal card and rejects what the retired connectors took, and malformed cards', async () => {
    expect((await post(card({ type: 'AdaptiveCard', version: '1.4', body: [] }))).status).toBe(202);
    const legacy = { '@type': 'MessageCard', '@context': 'https://schema.org/extensions', text: 'Hello' };
    const rejected = [
      legacy,
      card({ type: 'AdaptiveCard', body: [] }),
      card({ type: 'AdaptiveCard', version: '1.4', body: [{ type: 'FactSet', facts: [{ title: 'a' }] }] }),
      card({ type: 'AdaptiveCard', version: '1.4', body: [{ type: 'Banner', text: 'x' }] }),
      card({
        type: 'AdaptiveCard',
        version: '1.4',
        body: [],
        actions: [{ type: 'Action.OpenUrl', title: 'S3', url: 's3://bucket/key' }],
      }),
    ];
    for (const body of rejected) expect((await post(body)).status).toBe(400);
    expect(flow.refused.map((r) => r.code)).toEqual(Array(5).fill('TriggerInputSchemaMismatch'));
    expect(flow.cards).toHaveLength(1);
  });
});
