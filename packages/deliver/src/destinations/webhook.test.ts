import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DestinationError, PermanentDeliveryError, RetryableDeliveryError } from '../destination.ts';
import {
  failureOf,
  leakedSecrets,
  reportMessage,
  sendContext,
  sendTo,
  sendWithRetries,
  type TestFiles,
  testFiles,
} from '../testing/destination-fixtures.ts';
import { startWebhookReceiver, type TestWebhookReceiver } from '../testing/webhook-receiver.ts';
import { webhook, webhookDestination } from './webhook.ts';

const SECRET = 'test-webhook-secret-123';
const settings = { ORGREPORT_WEBHOOK_SECRET: SECRET };

let files: TestFiles;
let receiver: TestWebhookReceiver;
/** The receiver's clock, moved by the replay tests. */
let receiverNow = Date.now();
/** Every error and log line of the file, searched for the secret at the end. */
const outputs: unknown[] = [];

beforeAll(async () => {
  files = await testFiles();
});
afterAll(async () => {
  await files.remove();
  expect(leakedSecrets(outputs, [SECRET])).toEqual([]);
});
beforeEach(async () => {
  receiverNow = Date.now();
  receiver = await startWebhookReceiver({ secret: SECRET, now: () => receiverNow });
});
afterEach(() => receiver.close());

async function message() {
  const pdf = await files.write(
    'orgreport-acme-2026-10-team-platform.pdf',
    'application/pdf',
    '%PDF-1.7 test',
  );
  const actions = [{ title: 'Reclaim 2 seats.', text: 'Not used this month nor the month before.' }];
  return { ...reportMessage([pdf]), actions };
}

describe('webhook targets', () => {
  it('reads https URLs, and http only on loopback', () => {
    expect(webhook.parse('webhook:https://hooks.example.com/orgreport')).toEqual({
      url: 'https://hooks.example.com/orgreport',
    });
    expect(webhook.parse('webhook:http://127.0.0.1:8080/x').url).toBe('http://127.0.0.1:8080/x');
    expect(() => webhook.parse('webhook:http://hooks.example.com/x')).toThrow(/only for loopback/);
    expect(() => webhook.parse('webhook:ftp://hooks.example.com/x')).toThrow(DestinationError);
    expect(() => webhook.parse('webhook:not a url')).toThrow(/webhook:https:\/\/host\/path/);
  });

  it('labels a target without its query string, which may carry a token', () => {
    const address = webhook.parse('webhook:https://hooks.example.com/in?token=test-query-token');
    expect(webhook.label(address)).toBe('webhook:https://hooks.example.com/in');
  });
});

describe('webhook delivery against a verifying receiver', () => {
  it('delivers a signed JSON body once, with the delivery key and the documents by checksum', async () => {
    const msg = await message();
    const context = sendContext(settings, {
      links: [{ url: 'https://reports.example.com/2026-10/', label: 'Reports folder' }],
    });
    const receipt = await sendTo(webhook, `webhook:${receiver.url}`, msg, context);
    outputs.push(...context.lines);

    expect(receipt).toEqual({ id: 'HTTP 204' });
    expect(receiver.refused).toEqual([]);
    expect(receiver.deliveries).toHaveLength(1);
    const [delivery] = receiver.deliveries;
    expect(delivery?.key).toBe(context.key);
    expect(delivery?.body).toEqual({
      kind: 'report',
      subject: msg.subject,
      summary: msg.summary,
      text: msg.text,
      facts: msg.facts,
      actions: [{ title: 'Reclaim 2 seats.', text: 'Not used this month nor the month before.' }],
      meta: msg.meta,
      documents: [
        {
          filename: 'orgreport-acme-2026-10-team-platform.pdf',
          contentType: 'application/pdf',
          sha256: msg.documents[0]?.sha256,
          bytes: 13,
        },
      ],
      links: [{ url: 'https://reports.example.com/2026-10/', label: 'Reports folder' }],
    });
    // Neither the HTML nor the machine's paths leave.
    expect(delivery?.raw).not.toContain(files.dir);
    expect(delivery?.raw).not.toContain('<p>');
  });

  it('signs "<t>.<body>" with HMAC-SHA256, t being the clock at send time', async () => {
    const at = Date.UTC(2026, 10, 2, 6, 0, 0);
    receiverNow = at + 30_000;
    const sender = webhookDestination({ now: () => at });
    await sendTo(sender, `webhook:${receiver.url}`, await message(), sendContext(settings));
    const [delivery] = receiver.deliveries;
    const t = at / 1000;
    const mac = createHmac('sha256', SECRET).update(`${t}.${delivery?.raw}`).digest('hex');
    expect(delivery?.signature).toBe(`t=${t},v1=${mac}`);
  });

  it('counts a second send of the same delivery as a duplicate at the receiver (same key)', async () => {
    const msg = await message();
    await sendTo(webhook, `webhook:${receiver.url}`, msg, sendContext(settings));
    await sendTo(webhook, `webhook:${receiver.url}`, msg, sendContext(settings));
    expect(receiver.deliveries).toHaveLength(1);
    expect(receiver.duplicates).toEqual(['dlv-2026-10-platform-0001']);
  });

  it('retries 429 (with its Retry-After) and 503, then delivers once', async () => {
    receiver.fail({ status: 429, retryAfter: '7' }, { status: 503 });
    const { receipt, errors } = await sendWithRetries(() =>
      sendTo(webhook, `webhook:${receiver.url}`, reportMessage([]), sendContext(settings)),
    );
    outputs.push(...errors);
    expect(errors.map((e) => [e.constructor, e.retryAfterMs])).toEqual([
      [RetryableDeliveryError, 7000],
      [RetryableDeliveryError, undefined],
    ]);
    expect(errors[0]?.message).toMatch(/HTTP 429/);
    expect(errors[0]?.destination).toBe(`webhook:${receiver.url}`);
    expect(receipt.id).toBe('HTTP 204');
    expect(receiver.deliveries).toHaveLength(1);
  });

  it('retries a request timeout (408)', async () => {
    receiver.fail({ status: 408 });
    const error = await failureOf(() =>
      sendTo(webhook, `webhook:${receiver.url}`, reportMessage([]), sendContext(settings)),
    );
    expect(error).toBeInstanceOf(RetryableDeliveryError);
  });

  it('refuses another 4xx permanently, naming the destination and quoting the receiver', async () => {
    receiver.fail({ status: 422, body: 'unknown scope' });
    const error = await failureOf(() =>
      sendTo(webhook, `webhook:${receiver.url}`, reportMessage([]), sendContext(settings)),
    );
    outputs.push(error);
    expect(error).toBeInstanceOf(PermanentDeliveryError);
    expect((error as PermanentDeliveryError).destination).toBe(`webhook:${receiver.url}`);
    expect(error.message).toBe('HTTP 422: the receiver said: unknown scope');
  });

  it('is refused (401, permanent) when signed with another secret', async () => {
    const error = await failureOf(() =>
      sendTo(
        webhook,
        `webhook:${receiver.url}`,
        reportMessage([]),
        sendContext({ ORGREPORT_WEBHOOK_SECRET: 'test-other-secret-456' }),
      ),
    );
    outputs.push(error);
    expect(error).toBeInstanceOf(PermanentDeliveryError);
    expect(error.message).toMatch(/^HTTP 401: .*ORGREPORT_WEBHOOK_SECRET.*signature does not match/);
    expect(error.message).not.toContain('test-other-secret-456');
    expect(receiver.deliveries).toEqual([]);
  });

  it('is refused when its timestamp is older than five minutes (a replay)', async () => {
    const sender = webhookDestination({ now: () => receiverNow - 6 * 60_000 });
    const error = await failureOf(() =>
      sendTo(sender, `webhook:${receiver.url}`, reportMessage([]), sendContext(settings)),
    );
    expect(error).toBeInstanceOf(PermanentDeliveryError);
    expect(receiver.refused).toEqual([{ status: 401, reason: 'timestamp outside the tolerance' }]);
  });

  it('lets the receiver reject a captured request replayed later, or with its body changed', async () => {
    await sendTo(webhook, `webhook:${receiver.url}`, await message(), sendContext(settings));
    const [captured] = receiver.deliveries;
    if (!captured) throw new Error('nothing delivered');
    const replay = (body: string) =>
      fetch(receiver.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-orgreport-signature': captured.signature,
          'x-orgreport-delivery': 'dlv-another-key',
        },
        body,
      });

    const tampered = await replay(captured.raw.replace('182', '999'));
    expect(tampered.status).toBe(401);
    receiverNow += 10 * 60_000;
    const late = await replay(captured.raw);
    expect(late.status).toBe(401);
    expect(receiver.refused.map((r) => r.reason)).toEqual([
      'signature does not match',
      'timestamp outside the tolerance',
    ]);
    expect(receiver.deliveries).toHaveLength(1);
  });

  it('refuses to send unsigned when the secret is not set', async () => {
    const error = await failureOf(() =>
      sendTo(webhook, `webhook:${receiver.url}`, reportMessage([]), sendContext({})),
    );
    expect(error).toBeInstanceOf(PermanentDeliveryError);
    expect(error.message).toMatch(/ORGREPORT_WEBHOOK_SECRET is not set/);
    expect(receiver.deliveries).toEqual([]);
  });

  it('stops when the run gives up (its signal), as a retryable failure', async () => {
    const error = await failureOf(() =>
      sendTo(
        webhook,
        `webhook:${receiver.url}`,
        reportMessage([]),
        sendContext(settings, { signal: AbortSignal.abort() }),
      ),
    );
    expect(error).toBeInstanceOf(RetryableDeliveryError);
    expect(error.message).toBe('the delivery was cancelled before an answer came');
    expect(receiver.deliveries).toEqual([]);
  });

  it('counts an unreachable receiver as retryable, without printing the query string', async () => {
    const url = receiver.url;
    await receiver.close();
    const error = await failureOf(() =>
      sendTo(webhook, `webhook:${url}?token=test-query-token`, reportMessage([]), sendContext(settings)),
    );
    outputs.push(error);
    expect(error).toBeInstanceOf(RetryableDeliveryError);
    expect(error.message).toMatch(/could not reach the receiver \(ECONNREFUSED\)/);
    expect(leakedSecrets([error], ['test-query-token'])).toEqual([]);
    receiver = await startWebhookReceiver({ secret: SECRET });
  });
});
