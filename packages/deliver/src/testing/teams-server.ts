/**
 * A Teams Workflows webhook on loopback for the tests, written from Microsoft's public
 * documentation of the "Post to a channel when a webhook request is received" flow and of Adaptive
 * Cards: a POST to `/workflows/<id>/triggers/manual/paths/invoke?api-version=1&sp=...&sv=1.0&sig=...`
 * whose `sig` must match (401 otherwise), a JSON body that must be a `message` envelope whose
 * attachments are Adaptive Cards (`application/vnd.microsoft.card.adaptive`, `type: AdaptiveCard`,
 * a version Teams renders, known element and action types with their required fields), 400 with a
 * Logic Apps style error otherwise, 413 above Teams' 28 KB, and 202 Accepted with an empty body on
 * success. Faults (429 with Retry-After, 5xx) can be queued.
 *
 * Real flows validate the card when the flow runs, after the 202, and a bad card then shows as a
 * failed run; this endpoint checks at once, so that a test sees the rejection.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TeamsFault {
  status: number;
  retryAfter?: string;
}

export interface TestTeams {
  /** The flow's URL, signature included: what a user copies into ORGREPORT_TEAMS_WEBHOOK_URL. */
  url: string;
  /** The signature in the URL (a secret: tests check it is never printed). */
  sig: string;
  /** The cards accepted (the envelope's attachments' contents). */
  cards: Array<Record<string, unknown>>;
  /** Requests refused, with the status and the error code answered. */
  refused: Array<{ status: number; code: string; message: string }>;
  fail(...faults: TeamsFault[]): void;
  close(): Promise<void>;
}

/** Teams' limit on a message's size. */
const MAX_BYTES = 28 * 1024;
const CARD_TYPE = 'application/vnd.microsoft.card.adaptive';
const VERSIONS = ['1.0', '1.1', '1.2', '1.3', '1.4', '1.5'];

/** Element types of Adaptive Cards 1.5 and the fields each requires. */
const ELEMENTS: Record<string, (e: Record<string, unknown>, at: string) => string | undefined> = {
  TextBlock: (e, at) => (typeof e['text'] === 'string' ? undefined : `${at}.text is required (string)`),
  RichTextBlock: (e, at) => (Array.isArray(e['inlines']) ? undefined : `${at}.inlines is required (array)`),
  Image: (e, at) => (typeof e['url'] === 'string' ? undefined : `${at}.url is required (string)`),
  FactSet: (e, at) => {
    const facts = e['facts'];
    if (!Array.isArray(facts)) return `${at}.facts is required (array)`;
    const bad = facts.findIndex((f) => typeof f?.title !== 'string' || typeof f?.value !== 'string');
    return bad === -1 ? undefined : `${at}.facts[${bad}] needs title and value (strings)`;
  },
  Container: (e, at) => elements(e['items'], `${at}.items`),
  ColumnSet: (e, at) => {
    const columns = e['columns'];
    if (columns === undefined) return undefined;
    if (!Array.isArray(columns)) return `${at}.columns must be an array`;
    for (const [i, c] of columns.entries()) {
      const problem = elements(c?.items ?? [], `${at}.columns[${i}].items`);
      if (problem) return problem;
    }
    return undefined;
  },
  ActionSet: (e, at) => actions(e['actions'], `${at}.actions`),
};

const ACTIONS: Record<string, (a: Record<string, unknown>, at: string) => string | undefined> = {
  'Action.OpenUrl': (a, at) =>
    typeof a['url'] === 'string' && /^https?:\/\/\S+$/i.test(a['url'])
      ? undefined
      : `${at}.url is required (an absolute http(s) URL)`,
  'Action.Submit': () => undefined,
  'Action.Execute': () => undefined,
  'Action.ToggleVisibility': (a, at) =>
    Array.isArray(a['targetElements']) ? undefined : `${at}.targetElements is required`,
  'Action.ShowCard': (a, at) => (isObject(a['card']) ? undefined : `${at}.card is required`),
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function elements(list: unknown, at: string): string | undefined {
  if (!Array.isArray(list)) return `${at} must be an array`;
  for (const [i, element] of list.entries()) {
    const where = `${at}[${i}]`;
    if (!isObject(element) || typeof element['type'] !== 'string') return `${where}.type is required`;
    const check = ELEMENTS[element['type']];
    if (!check) return `${where}: unknown element type ${JSON.stringify(element['type'])}`;
    const problem = check(element, where);
    if (problem) return problem;
  }
  return undefined;
}

function actions(list: unknown, at: string): string | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) return `${at} must be an array`;
  for (const [i, action] of list.entries()) {
    const where = `${at}[${i}]`;
    if (!isObject(action) || typeof action['type'] !== 'string') return `${where}.type is required`;
    const check = ACTIONS[action['type']];
    if (!check) return `${where}: unknown action type ${JSON.stringify(action['type'])}`;
    const problem = check(action, where);
    if (problem) return problem;
  }
  return undefined;
}

/** What is wrong with a request's body as a Workflows webhook sees it; undefined when nothing. */
function envelopeProblem(body: unknown, versions: ReadonlyArray<string>): string | undefined {
  if (!isObject(body)) return 'the body must be a JSON object';
  if (body['type'] !== 'message') return "body.type must be 'message'";
  const attachments = body['attachments'];
  if (!Array.isArray(attachments) || attachments.length === 0)
    return 'body.attachments must be a non-empty array';
  for (const [i, attachment] of attachments.entries()) {
    const at = `body.attachments[${i}]`;
    if (!isObject(attachment)) return `${at} must be an object`;
    if (attachment['contentType'] !== CARD_TYPE) return `${at}.contentType must be '${CARD_TYPE}'`;
    const card = attachment['content'];
    if (!isObject(card)) return `${at}.content must be the card (an object)`;
    if (card['type'] !== 'AdaptiveCard') return `${at}.content.type must be 'AdaptiveCard'`;
    if (typeof card['version'] !== 'string' || !versions.includes(card['version'])) {
      return `${at}.content.version must be one of ${versions.join(', ')}`;
    }
    const problem =
      elements(card['body'] ?? [], `${at}.content.body`) ?? actions(card['actions'], `${at}.content.actions`);
    if (problem) return problem;
  }
  return undefined;
}

export interface TeamsWorkflowOptions {
  /** The newest card version the channel's clients render (default 1.5). */
  maxVersion?: string;
}

/** Starts the endpoint on 127.0.0.1 (any free port). */
export async function startTeamsWorkflow(options: TeamsWorkflowOptions = {}): Promise<TestTeams> {
  const versions = VERSIONS.slice(0, VERSIONS.indexOf(options.maxVersion ?? '1.5') + 1);
  const sig = `test-sig-${randomBytes(12).toString('hex')}`;
  const flow = randomBytes(16).toString('hex');
  const path = `/workflows/${flow}/triggers/manual/paths/invoke`;
  const cards: Array<Record<string, unknown>> = [];
  const refused: TestTeams['refused'] = [];
  const faults: TeamsFault[] = [];

  const error = (res: ServerResponse, status: number, code: string, message: string) => {
    refused.push({ status, code, message });
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { code, message } }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const fault = faults.shift();
    if (fault) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      const code = fault.status === 429 ? 'TooManyRequests' : 'ServiceUnavailable';
      res
        .writeHead(fault.status, headers)
        .end(JSON.stringify({ error: { code, message: 'Try again later.' } }));
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'POST' || url.pathname !== path) {
      return error(res, 404, 'WorkflowNotFound', 'The workflow could not be found.');
    }
    if (url.searchParams.get('sig') !== sig) {
      return error(
        res,
        401,
        'DirectApiAuthorizationRequired',
        'The request must be authenticated by a valid signature.',
      );
    }
    if (Buffer.byteLength(raw) > MAX_BYTES) {
      return error(res, 413, 'MessageTooLarge', `The message exceeds ${MAX_BYTES} bytes.`);
    }
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return error(res, 400, 'InvalidRequestContent', "The content type must be 'application/json'.");
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return error(res, 400, 'InvalidRequestContent', 'The request content is not valid JSON.');
    }
    const problem = envelopeProblem(body, versions);
    if (problem)
      return error(res, 400, 'TriggerInputSchemaMismatch', `The input body did not match: ${problem}.`);
    for (const attachment of (body as { attachments: Array<{ content: Record<string, unknown> }> })
      .attachments) {
      cards.push(attachment.content);
    }
    res.writeHead(202).end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${sig}`,
    sig,
    cards,
    refused,
    fail: (...more) => faults.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
