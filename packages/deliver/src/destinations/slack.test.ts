import { readFile } from 'node:fs/promises';
import { WebClient } from '@slack/web-api';
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
import { startSlack, type TestSlack } from '../testing/slack-server.ts';
import { slack } from './slack.ts';

const TOKEN = 'test-slack-token-123';
const REVOKED = 'test-slack-revoked-456';
const WRONG = 'test-slack-wrong-789';

let files: TestFiles;
let server: TestSlack;
const outputs: unknown[] = [];

beforeAll(async () => {
  files = await testFiles();
});
afterAll(async () => {
  await files.remove();
  expect(leakedSecrets(outputs, [TOKEN, REVOKED, WRONG])).toEqual([]);
});
beforeEach(async () => {
  server = await startSlack({
    token: TOKEN,
    revokedTokens: [REVOKED],
    // Three a page, whatever the client asks: #eng-leads is on the second page.
    pageSize: 3,
    channels: [
      { id: 'C0GENERAL1', name: 'general' },
      { id: 'C0RANDOM01', name: 'random' },
      { id: 'C0FINANCE1', name: 'finance', member: false },
      { id: 'C0OLDTEAM1', name: 'old-team', archived: true },
      { id: 'G0PRIVATE1', name: 'eng-leads', private: true },
    ],
  });
});
afterEach(() => server.close());

const settings = (token = TOKEN) => ({
  ORGREPORT_SLACK_TOKEN: token,
  ORGREPORT_SLACK_API_URL: server.apiUrl,
});

async function documents() {
  const pdf = await files.write(
    'orgreport-acme-2026-10.pdf',
    'application/pdf',
    Buffer.from('%PDF-1.7\n'.repeat(500)),
  );
  const xlsx = await files.write(
    'orgreport-acme-2026-10.xlsx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 1, 2, 3, 255]),
  );
  return [pdf, xlsx];
}

async function deliver(target: string, message = reportMessage([]), context = sendContext(settings())) {
  try {
    const receipt = await sendTo(slack, target, message, context);
    outputs.push(...context.lines);
    return receipt;
  } catch (error) {
    outputs.push(error, ...context.lines);
    throw error;
  }
}

describe('slack targets', () => {
  it('reads #names and channel ids', () => {
    expect(slack.parse('slack:#eng-leads')).toEqual({ name: 'eng-leads' });
    expect(slack.parse('slack:C0123ABCD')).toEqual({ id: 'C0123ABCD' });
    expect(slack.label(slack.parse('slack:#eng-leads'))).toBe('slack:#eng-leads');
    for (const bad of ['slack:eng-leads', 'slack:#Eng Leads', 'slack:', 'slack:c0123abcd']) {
      expect(() => slack.parse(bad)).toThrow(DestinationError);
    }
    expect(() => slack.parse('slack:eng')).toThrow(/write slack:#channel or slack:C0123ABCD/);
  });
});

describe('slack delivery against a Web API server', () => {
  it('shares the documents through the upload sequence with the summary as their message', async () => {
    const docs = await documents();
    const context = sendContext(settings());
    const receipt = await deliver('slack:#eng-leads', reportMessage(docs), context);

    // The #name is found on the second page, then each file goes up in three steps.
    expect(server.calls.slice(0, 2)).toEqual(['conversations.list', 'conversations.list']);
    expect(server.calls.slice(2).sort()).toEqual(
      [
        'files.completeUploadExternal',
        'files.getUploadURLExternal',
        'files.getUploadURLExternal',
        'upload',
        'upload',
      ].sort(),
    );
    expect(server.calls.at(-1)).toBe('files.completeUploadExternal');
    expect(server.posts).toHaveLength(1);
    const [post] = server.posts;
    expect(post?.channel).toBe('G0PRIVATE1');
    expect(post?.text).toBe(
      [
        '*Acme usage report, October 2026 (team Platform)*',
        reportMessage([]).summary,
        '',
        '• Active users: *182*',
        '• Tool calls: *48,210*',
        '• Credits: *1,204.5*',
      ].join('\n'),
    );
    expect(receipt.id.split(',')).toEqual(post?.files);
    for (const [i, doc] of docs.entries()) {
      const file = server.files.get(post?.files[i] ?? '');
      expect(file?.filename).toBe(doc.filename);
      expect(file?.bytes?.equals(await readFile(doc.path))).toBe(true);
      expect(file?.completed).toBe(true);
    }
    expect(context.lines).toEqual([
      `slack:#eng-leads: 2 file(s) shared with the message (${receipt.id.replace(',', ', ')})`,
    ]);
  });

  it('posts a message without files when there is no document (an alert), by channel id', async () => {
    const alert = reportMessage([], { kind: 'alert', subject: 'Credits <over> budget & rising', facts: [] });
    const receipt = await deliver('slack:C0GENERAL1', alert);
    expect(server.calls).toEqual(['chat.postMessage']);
    expect(server.posts).toEqual([
      {
        channel: 'C0GENERAL1',
        text: expect.stringMatching(/^\*Credits &lt;over&gt; budget &amp; rising\*\n/),
        ts: expect.any(String),
        files: [],
      },
    ]);
    expect(receipt.id).toBe(`C0GENERAL1/${server.posts[0]?.ts}`);
  });

  it('retries a 429 (with its Retry-After) and a 5xx, then shares the files once', async () => {
    const docs = await documents();
    server.fail({ method: 'files.getUploadURLExternal', status: 429, retryAfter: 30 });
    server.fail({ method: 'files.completeUploadExternal', status: 503 });
    const { receipt, errors } = await sendWithRetries(() => deliver('slack:C0GENERAL1', reportMessage(docs)));
    expect(errors.map((e) => [e.constructor, e.retryAfterMs, e.message])).toEqual([
      [RetryableDeliveryError, 30_000, 'Slack is rate limiting (HTTP 429, retry after 30 s)'],
      [RetryableDeliveryError, undefined, 'Slack answered HTTP 503'],
    ]);
    expect(errors[0]?.destination).toBe('slack:C0GENERAL1');
    expect(server.posts).toHaveLength(1);
    expect(server.posts[0]?.files).toEqual(receipt.id.split(','));
  });

  it("retries Slack's own ratelimited and internal_error answers", async () => {
    server.fail(
      { method: 'chat.postMessage', error: 'ratelimited' },
      { method: 'chat.postMessage', error: 'internal_error' },
    );
    const { errors } = await sendWithRetries(() => deliver('slack:C0GENERAL1'));
    expect(errors.map((e) => e.message)).toEqual([
      'Slack answered ratelimited',
      'Slack answered internal_error',
    ]);
    expect(server.posts).toHaveLength(1);
  });

  it('refuses a bad, missing or revoked token permanently, naming the variable and not the token', async () => {
    for (const [token, expected] of [
      [WRONG, 'Slack refused the token (invalid_auth): check ORGREPORT_SLACK_TOKEN'],
      [REVOKED, 'the token was revoked (token_revoked): set a new one in ORGREPORT_SLACK_TOKEN'],
    ] as const) {
      const error = await failureOf(() =>
        deliver('slack:C0GENERAL1', reportMessage([]), sendContext(settings(token))),
      );
      expect(error).toBeInstanceOf(PermanentDeliveryError);
      expect(error.message).toBe(expected);
      expect((error as PermanentDeliveryError).destination).toBe('slack:C0GENERAL1');
    }
    const unset = await failureOf(() => deliver('slack:C0GENERAL1', reportMessage([]), sendContext({})));
    expect(unset).toBeInstanceOf(PermanentDeliveryError);
    expect(unset.message).toBe('ORGREPORT_SLACK_TOKEN is not set');
    expect(server.posts).toEqual([]);
  });

  it('refuses unknown, foreign and archived channels permanently, with what to do', async () => {
    const cases = [
      ['slack:C0NOWHERE1', 'Slack knows no channel C0NOWHERE1 this token can see (channel_not_found)'],
      [
        'slack:C0FINANCE1',
        'the Slack app is not a member of C0FINANCE1 (not_in_channel): invite it to the channel (/invite @app)',
      ],
      ['slack:C0OLDTEAM1', 'C0OLDTEAM1 is archived (is_archived)'],
      ['slack:#nowhere', /^Slack knows no channel #nowhere this token can see/],
    ] as const;
    const docs = await documents();
    for (const [target, expected] of cases) {
      const error = await failureOf(() => deliver(target, reportMessage(docs)));
      expect(error).toBeInstanceOf(PermanentDeliveryError);
      expect(error.message).toMatch(expected);
    }
    expect(server.posts).toEqual([]);
  });

  it('names the missing scope Slack reports', async () => {
    server.fail({ method: 'conversations.list', error: 'missing_scope' });
    const error = await failureOf(() => deliver('slack:#general'));
    expect(error).toBeInstanceOf(PermanentDeliveryError);
    expect(error.message).toBe('the token lacks a scope: add it to the Slack app');
  });

  it('counts an unreachable API as retryable', async () => {
    const context = sendContext(settings());
    await server.close();
    const error = await failureOf(() => deliver('slack:C0GENERAL1', reportMessage([]), context));
    expect(error).toBeInstanceOf(RetryableDeliveryError);
    expect(error.message).toBe('could not reach Slack (ECONNREFUSED)');
    server = await startSlack({ token: TOKEN, channels: [] });
  });
});

describe('the Web API server itself', () => {
  it('will not complete an upload whose bytes never came, nor take fewer bytes than announced', async () => {
    const client = new WebClient(TOKEN, { slackApiUrl: server.apiUrl, retryConfig: { retries: 0 } });
    const ticket = await client.files.getUploadURLExternal({ filename: 'a.pdf', length: 10 });
    const complete = client.files.completeUploadExternal({
      files: [{ id: ticket.file_id as string }],
      channel_id: 'C0GENERAL1',
    });
    await expect(complete).rejects.toMatchObject({ data: { ok: false, error: 'file_not_found' } });
    const short = await fetch(ticket.upload_url as string, { method: 'POST', body: 'only5' });
    expect(short.status).toBe(400);
    expect(server.posts).toEqual([]);
  });
});
