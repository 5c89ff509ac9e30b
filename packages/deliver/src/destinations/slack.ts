/**
 * The `slack` destination: the summary and the figures as a message in a channel, each document
 * shared as a file, through Slack's Web API and its official client (`@slack/web-api`).
 *
 * Slack's old `files.upload` is gone: a file goes up in three steps (`files.getUploadURLExternal`,
 * a POST of the bytes to the URL it returns, `files.completeUploadExternal` with the channel's id),
 * which the client's `filesUploadV2` does; the message rides along as the upload's
 * `initial_comment`, so the files and their text arrive as one post. `completeUploadExternal`
 * takes channel ids only, so a `#name` is looked up first (`conversations.list`, paged, bounded).
 *
 * The client's own retries are off and rate-limited calls rejected at once, so that every failure
 * comes back here and is classified: a 429 (with its Retry-After), a 5xx, a timeout or Slack's
 * `ratelimited`/`internal_error` may pass; a bad token, an unknown channel, an app not in the
 * channel, a missing scope will not. The token is never printed: the client's logger is silenced
 * and messages are written here, from what Slack answered.
 */
import { scrubText } from '@orgreport/api-core/redact';
import { errorCode } from '@orgreport/api-core/retry';
// The Slack SDK is loaded on the first send: a run without a Slack target never loads it.
import type {
  FilesCompleteUploadExternalResponse,
  Logger,
  WebClient,
  WebClientOptions,
} from '@slack/web-api';
import {
  type DeliveryError,
  type DeliveryMessage,
  DestinationError,
  defineDestination,
  PermanentDeliveryError,
  RetryableDeliveryError,
  type SendContext,
  type SentReceipt,
} from '../destination.ts';
import { REQUEST_TIMEOUT_MS } from './http.ts';

/** The variable holding the bot token (`xoxb-…`). */
export const SLACK_TOKEN_ENV = 'ORGREPORT_SLACK_TOKEN';
/** The variable that points the client at another Web API base URL (a proxy, a test server). */
export const SLACK_API_URL_ENV = 'ORGREPORT_SLACK_API_URL';

/** A Slack target: a channel by id (`C0123ABCD`) or by name (`eng-leads`, written `#eng-leads`). */
export type SlackAddress = { id: string } | { name: string };

const SYNTAX = 'slack:#channel or slack:C0123ABCD';
/** Channel names: lower-case letters, digits, `-`, `_` (and `.` in older workspaces), at most 80. */
const CHANNEL_NAME = /^[a-z0-9][a-z0-9._-]{0,79}$/;
/** Conversation ids: C (public), G (private, older), D (direct), then upper-case letters and digits. */
const CHANNEL_ID = /^[CGD][A-Z0-9]{8,}$/;
/** Pages of `conversations.list` read to find a `#name` before giving up (200 channels a page). */
const MAX_CHANNEL_PAGES = 50;
const CHANNELS_PER_PAGE = 200;

/** Slack errors that may pass by trying again later; any other `ok: false` will not. */
const RETRYABLE_ERRORS = new Set([
  'ratelimited',
  'rate_limited',
  'fatal_error',
  'internal_error',
  'service_unavailable',
  'request_timeout',
  'team_added_to_org',
]);

/** What to tell a person for the Slack errors a configuration causes. */
const EXPLANATIONS: Record<string, (channel: string) => string> = {
  invalid_auth: () => `Slack refused the token (invalid_auth): check ${SLACK_TOKEN_ENV}`,
  not_authed: () => `Slack received no token (not_authed): set ${SLACK_TOKEN_ENV}`,
  token_revoked: () => `the token was revoked (token_revoked): set a new one in ${SLACK_TOKEN_ENV}`,
  token_expired: () => `the token expired (token_expired): set a new one in ${SLACK_TOKEN_ENV}`,
  account_inactive: () =>
    `the token belongs to a deactivated user or app (account_inactive): check ${SLACK_TOKEN_ENV}`,
  channel_not_found: (channel) => `Slack knows no channel ${channel} this token can see (channel_not_found)`,
  not_in_channel: (channel) =>
    `the Slack app is not a member of ${channel} (not_in_channel): invite it to the channel (/invite @app)`,
  is_archived: (channel) => `${channel} is archived (is_archived)`,
  file_uploads_disabled: () => 'the workspace has disabled file uploads (file_uploads_disabled)',
};

/** The `slack` destination. */
export const slack = defineDestination<SlackAddress>({
  scheme: 'slack',
  title: 'Slack channel',
  syntax: SYNTAX,
  settings: [
    {
      env: SLACK_TOKEN_ENV,
      help: 'Slack bot token (scopes chat:write, files:write, and channels:read/groups:read to find a #name)',
      secret: true,
      required: true,
    },
    {
      env: SLACK_API_URL_ENV,
      help: 'Base URL of the Slack Web API (default https://slack.com/api/): a proxy or a test server',
    },
  ],
  parse(target) {
    const rest = target.startsWith('slack:') ? target.slice('slack:'.length) : undefined;
    if (rest?.startsWith('#') && CHANNEL_NAME.test(rest.slice(1))) return { name: rest.slice(1) };
    if (rest !== undefined && CHANNEL_ID.test(rest)) return { id: rest };
    throw new DestinationError(`slack target ${JSON.stringify(target)}: write ${SYNTAX}`);
  },
  label: (address) => ('id' in address ? `slack:${address.id}` : `slack:#${address.name}`),
  send: sendToSlack,
});

/** The client's logger, silenced: its lines may quote requests; ours say what happened. */
const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => 'error' as ReturnType<Logger['getLevel']>,
  setName: () => {},
};

async function sendToSlack(
  message: DeliveryMessage,
  address: SlackAddress,
  context: SendContext,
): Promise<SentReceipt> {
  const label = slack.label(address);
  const token = context.settings[SLACK_TOKEN_ENV];
  if (!token) throw new PermanentDeliveryError(label, `${SLACK_TOKEN_ENV} is not set`);
  const { WebClient } = await import('@slack/web-api');
  const client = new WebClient(token, clientOptions(context));
  const channelName = 'id' in address ? address.id : `#${address.name}`;
  try {
    const channel = 'id' in address ? address.id : await channelId(client, address.name, label);
    const text = slackText(message);
    if (message.documents.length === 0) {
      const posted = await client.chat.postMessage({
        channel,
        text,
        unfurl_links: false,
        unfurl_media: false,
      });
      context.log(`${label}: message posted (ts ${posted.ts})`);
      return { id: `${channel}/${posted.ts}` };
    }
    const uploaded = await client.filesUploadV2({
      channel_id: channel,
      initial_comment: text,
      file_uploads: message.documents.map((d) => ({ file: d.path, filename: d.filename, title: d.filename })),
    });
    const completions = (uploaded as { files?: FilesCompleteUploadExternalResponse[] }).files ?? [];
    const ids = completions.flatMap((c) => (c.files ?? []).map((f) => f.id ?? '?'));
    context.log(`${label}: ${ids.length} file(s) shared with the message (${ids.join(', ')})`);
    return { id: ids.join(',') };
  } catch (error) {
    throw slackFailure(label, channelName, error, token);
  }
}

function clientOptions(context: SendContext): WebClientOptions {
  const base = context.settings[SLACK_API_URL_ENV];
  return {
    ...(base ? { slackApiUrl: base } : {}),
    logger: silentLogger,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: REQUEST_TIMEOUT_MS,
    // Every request also ends when the run gives up.
    fetch: (url, init) =>
      fetch(url, {
        ...init,
        signal: init?.signal ? AbortSignal.any([init.signal, context.signal]) : context.signal,
      }),
  };
}

/** The id of `#name`: the channels this token can see, page by page, up to a bound. */
async function channelId(client: WebClient, name: string, label: string): Promise<string> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_CHANNEL_PAGES; page++) {
    const result = await client.conversations.list({
      types: 'public_channel,private_channel',
      exclude_archived: true,
      limit: CHANNELS_PER_PAGE,
      ...(cursor ? { cursor } : {}),
    });
    const found = result.channels?.find((c) => c.name === name);
    if (found?.id) return found.id;
    cursor = result.response_metadata?.next_cursor;
    if (!cursor) {
      throw new PermanentDeliveryError(
        label,
        `Slack knows no channel #${name} this token can see (a private channel must have the app invited); or write slack:<channel id>`,
      );
    }
  }
  throw new PermanentDeliveryError(
    label,
    `#${name} is not among the first ${MAX_CHANNEL_PAGES * CHANNELS_PER_PAGE} channels: write its id instead (slack:C0123ABCD)`,
  );
}

/**
 * The message's text in Slack's mrkdwn: the subject in bold, the summary, then the figures.
 * `&`, `<` and `>` are escaped, as Slack asks, so that no text turns into a mention or a link.
 */
function slackText(message: DeliveryMessage): string {
  const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const lines = [`*${escaped(message.subject)}*`];
  if (message.summary.trim() !== '') lines.push(escaped(message.summary));
  if (message.facts.length > 0) {
    lines.push('', ...message.facts.map((f) => `• ${escaped(f.label)}: *${escaped(f.value)}*`));
  }
  if (message.actions && message.actions.length > 0) {
    lines.push(
      '',
      '*What to do this month*',
      ...message.actions.map((a, i) => `${i + 1}. *${escaped(a.title)}.* ${escaped(a.text)}`),
    );
  }
  return lines.join('\n');
}

/** Classifies what the client threw; the message says what Slack answered, never the token. */
function slackFailure(label: string, channel: string, error: unknown, token: string): DeliveryError {
  if (error instanceof PermanentDeliveryError || error instanceof RetryableDeliveryError) return error;
  const e = error as {
    code?: string;
    retryAfter?: number;
    statusCode?: number;
    headers?: Record<string, string>;
    data?: { error?: string; needed?: string };
    message?: string;
  };
  switch (e.code) {
    // The SDK's ErrorCode values, written out: the SDK itself is loaded only when Slack is used.
    case 'slack_webapi_rate_limited_error': // ErrorCode.RateLimitedError
      return new RetryableDeliveryError(
        label,
        `Slack is rate limiting (HTTP 429, retry after ${e.retryAfter} s)`,
        (e.retryAfter ?? 0) * 1000,
      );
    // ErrorCode.PlatformError
    case 'slack_webapi_platform_error': {
      const code = String(e.data?.error ?? 'unknown_error');
      if (RETRYABLE_ERRORS.has(code)) return new RetryableDeliveryError(label, `Slack answered ${code}`);
      if (code === 'missing_scope') {
        const needed = e.data?.needed ? ` (needed: ${e.data.needed})` : '';
        return new PermanentDeliveryError(label, `the token lacks a scope${needed}: add it to the Slack app`);
      }
      const explain = EXPLANATIONS[code];
      return new PermanentDeliveryError(
        label,
        explain ? explain(channel) : `Slack refused the request (${code})`,
      );
    }
    // ErrorCode.HTTPError
    case 'slack_webapi_http_error': {
      const status = e.statusCode ?? 0;
      if (status === 408 || status >= 500) {
        const after = Number(e.headers?.['retry-after']);
        return new RetryableDeliveryError(
          label,
          `Slack answered HTTP ${status}`,
          Number.isFinite(after) && after >= 0 ? after * 1000 : undefined,
        );
      }
      return new PermanentDeliveryError(label, `Slack answered HTTP ${status}`);
    }
    // ErrorCode.RequestError
    case 'slack_webapi_request_error': {
      const original = (error as { original?: Error }).original;
      if (original?.name === 'TimeoutError') {
        return new RetryableDeliveryError(
          label,
          `no answer from Slack within ${REQUEST_TIMEOUT_MS / 1000} s`,
        );
      }
      if (original?.name === 'AbortError') {
        return new RetryableDeliveryError(label, 'the delivery was cancelled before Slack answered');
      }
      return new RetryableDeliveryError(
        label,
        `could not reach Slack (${errorCode(original) ?? 'network error'})`,
      );
    }
    case 'slack_webapi_file_upload_invalid_args_error': // ErrorCode.FileUploadInvalidArgumentsError
    case 'slack_webapi_file_upload_read_file_data_error': // ErrorCode.FileUploadReadFileDataError
      return new PermanentDeliveryError(
        label,
        `a document could not be read for upload: ${scrubText(String(e.message), [token])}`,
      );
    default:
      return new RetryableDeliveryError(
        label,
        `Slack delivery failed: ${scrubText(String(e.message ?? error), [token])}`,
      );
  }
}
