/**
 * The `teams` destination: an Adaptive Card posted to a Teams channel through a Workflows webhook
 * (the "Post to a channel when a webhook request is received" flow). Office 365 connectors, which
 * took MessageCards, are retired; a Workflows trigger takes an Adaptive Card wrapped in a `message`
 * envelope and answers 202. The card carries the subject, the summary ("what changed"), the
 * figures as a FactSet, and a button per link where a storing destination of the same group put
 * the documents. The webhook URL carries a signature (`sig=`): it is a secret, read from a variable
 * and never printed; the target names the variable instead.
 */
import {
  type DeliveryMessage,
  DestinationError,
  defineDestination,
  PermanentDeliveryError,
  type SendContext,
} from '../destination.ts';
import { failureOf, post, readHttpUrl } from './http.ts';

/** The variable `teams` (without a name) reads the Workflows webhook URL from. */
export const TEAMS_WEBHOOK_URL_ENV = 'ORGREPORT_TEAMS_WEBHOOK_URL';

/** A Teams target: the variable holding the Workflows webhook URL. */
export interface TeamsAddress {
  variable: string;
}

const SYNTAX = `teams (the URL in ${TEAMS_WEBHOOK_URL_ENV}) or teams:VARNAME (the URL in the variable VARNAME)`;
const VARIABLE = /^[A-Z_][A-Z0-9_]*$/;

/** The `teams` destination. */
export const teams = defineDestination<TeamsAddress>({
  scheme: 'teams',
  title: 'Microsoft Teams channel (Workflows webhook)',
  syntax: SYNTAX,
  settings: [
    {
      env: TEAMS_WEBHOOK_URL_ENV,
      help: 'URL of the Teams Workflows webhook (it carries a signature: kept secret); teams:VARNAME reads another variable',
      secret: true,
    },
  ],
  parse(target) {
    if (target === 'teams') return { variable: TEAMS_WEBHOOK_URL_ENV };
    const variable = target.startsWith('teams:') ? target.slice('teams:'.length) : '';
    if (!VARIABLE.test(variable)) {
      // A target that is not a variable's name is not quoted: it may be the URL, a secret.
      const quoted = /^teams:[A-Za-z0-9_]{0,64}$/.test(target) ? ` ${JSON.stringify(target)}` : '';
      throw new DestinationError(
        `teams target${quoted}: write ${SYNTAX}; the URL itself never goes in a target, it is a secret`,
      );
    }
    return { variable };
  },
  needs: (address) => [address.variable],
  label: (address) => `teams:${address.variable}`,
  send: sendCard,
});

type CardElement = Record<string, unknown>;

/** The Adaptive Card (version 1.4, the version Teams renders everywhere). */
function teamsCard(message: DeliveryMessage, links: SendContext['links']): CardElement {
  const body: CardElement[] = [
    {
      type: 'TextBlock',
      text: message.subject,
      size: 'Large',
      weight: 'Bolder',
      wrap: true,
      style: 'heading',
    },
  ];
  if (message.summary.trim() !== '') body.push({ type: 'TextBlock', text: message.summary, wrap: true });
  if (message.facts.length > 0) {
    body.push({ type: 'FactSet', facts: message.facts.map((f) => ({ title: f.label, value: f.value })) });
  }
  if (message.actions && message.actions.length > 0) {
    body.push({ type: 'TextBlock', text: 'What to do this month', weight: 'Bolder', wrap: true });
    for (const [i, a] of message.actions.entries()) {
      body.push({ type: 'TextBlock', text: `${i + 1}. **${a.title}.** ${a.text}`, wrap: true });
    }
  }
  const openable = links.filter((link) => isOpenable(link.url));
  for (const link of links.filter((l) => !openable.includes(l))) {
    // An s3:// location cannot be opened from Teams: it is shown for people who have a client.
    body.push({
      type: 'TextBlock',
      text: `${link.label}: ${link.url}`,
      wrap: true,
      isSubtle: true,
      size: 'Small',
    });
  }
  const card: CardElement = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    msteams: { width: 'Full' },
  };
  if (openable.length > 0) {
    card['actions'] = openable.map((link) => ({ type: 'Action.OpenUrl', title: link.label, url: link.url }));
  }
  return card;
}

/** A link Teams can open from a button: an absolute http(s) URL. */
function isOpenable(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The envelope a Workflows webhook takes: a `message` with the card as its one attachment. */
function envelope(card: CardElement) {
  return {
    type: 'message',
    attachments: [
      { contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card },
    ],
  };
}

async function sendCard(message: DeliveryMessage, address: TeamsAddress, context: SendContext) {
  const label = `teams:${address.variable}`;
  const text = context.settings[address.variable];
  if (!text) {
    throw new PermanentDeliveryError(
      label,
      `${address.variable} is not set: it holds the URL of the channel's Workflows webhook`,
    );
  }
  const url = readHttpUrl(text);
  if (typeof url === 'string') throw new PermanentDeliveryError(label, `${address.variable}: ${url}`);
  const body = JSON.stringify(envelope(teamsCard(message, context.links)));
  const response = await post({
    destination: label,
    url,
    headers: { 'content-type': 'application/json' },
    body,
    signal: context.signal,
  });
  if (response.status === 200 || response.status === 202) {
    await response.body?.cancel();
    context.log(`${label}: card accepted (HTTP ${response.status})`);
    return { id: `HTTP ${response.status}` };
  }
  const secrets = [text, url.search.slice(1), ...url.searchParams.values()];
  throw await failureOf(label, response, secrets, (status) => explain(status, address.variable));
}

function explain(status: number, variable: string): string | undefined {
  if (status === 400) return 'the Workflows endpoint rejected the card';
  if (status === 401 || status === 403) {
    return `the Workflows endpoint refused the URL's signature: copy the flow's URL into ${variable} again`;
  }
  if (status === 404) return `no flow at that URL (deleted or turned off?): check ${variable}`;
  if (status === 413) return 'the card is larger than Teams accepts (about 28 KB)';
  return undefined;
}
