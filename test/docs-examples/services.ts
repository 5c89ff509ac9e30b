/**
 * The servers an example may need (`needs SERVICE` in its marker), on loopback: the ones the other
 * tests use, each written from its service's public documentation. A service gives the example the
 * environment variables a reader would set, may map a placeholder address of the text to itself,
 * and counts what it received, so that an example that needs it passes only when it got something.
 */
import { startS3 } from '@orgreport/test-servers/s3';
import { startSlack } from '../../packages/deliver/src/testing/slack-server.ts';
import { startTeamsWorkflow } from '../../packages/deliver/src/testing/teams-server.ts';
import { startWebhookReceiver } from '../../packages/deliver/src/testing/webhook-receiver.ts';
import { startNtfy } from '../ntfy.ts';
import { startSmtp } from '../smtp.ts';
import type { Service } from './markers.ts';

export interface RunningService {
  env: Record<string, string>;
  /** Placeholder addresses of the text (`https://hooks.example.com/`) and what they stand for here. */
  addresses: Record<string, string>;
  /** What it has received so far: mails, posts, cards, requests, objects. */
  received(): number;
  close(): Promise<void>;
}

/** What a page's examples ask of the servers: Slack channels, buckets, Teams variables. */
export interface ServiceNeeds {
  /** The page's code, searched for `slack:#channel`, `s3://bucket/` and `teams:VARIABLE`. */
  code: string;
}

const matches = (code: string, pattern: RegExp): string[] => [
  ...new Set([...code.matchAll(pattern)].map((m) => m[1]!)),
];

export async function startService(service: Service, needs: ServiceNeeds): Promise<RunningService> {
  switch (service) {
    case 'smtp': {
      const smtp = await startSmtp();
      return {
        env: { ORGREPORT_SMTP_URL: smtp.url, ORGREPORT_MAIL_FROM: 'orgreport@example.com' },
        addresses: {},
        received: () => smtp.received.length,
        close: () => smtp.close(),
      };
    }
    case 'slack': {
      const token = 'xoxb-docs-examples-token';
      const channels = matches(needs.code, /slack:#([-_a-z0-9]+)/g).map((name, i) => ({
        id: `C${String(i + 1).padStart(8, '0')}`,
        name,
      }));
      const slack = await startSlack({ token, channels });
      return {
        env: { ORGREPORT_SLACK_TOKEN: token, ORGREPORT_SLACK_API_URL: slack.apiUrl },
        addresses: {},
        received: () => slack.posts.length,
        close: () => slack.close(),
      };
    }
    case 'teams': {
      const teams = await startTeamsWorkflow();
      const variables = matches(needs.code, /teams:([A-Z][A-Z0-9_]*)/g);
      return {
        env: Object.fromEntries(
          ['ORGREPORT_TEAMS_WEBHOOK_URL', ...variables].map((name) => [name, teams.url]),
        ),
        addresses: {},
        received: () => teams.cards.length,
        close: () => teams.close(),
      };
    }
    case 'webhook': {
      const secret = 'docs-examples-webhook-secret';
      const receiver = await startWebhookReceiver({ secret });
      return {
        env: { ORGREPORT_WEBHOOK_SECRET: secret },
        addresses: { 'https://hooks.example.com/': new URL('/hooks/', receiver.url).href },
        received: () => receiver.deliveries.length,
        close: () => receiver.close(),
      };
    }
    case 's3': {
      const s3 = await startS3({ buckets: matches(needs.code, /s3:\/\/([a-z0-9][-.a-z0-9]*)\//g) });
      return {
        env: {
          ORGREPORT_S3_ENDPOINT: s3.endpoint,
          ORGREPORT_S3_REGION: 'us-east-1',
          ORGREPORT_S3_FORCE_PATH_STYLE: 'true',
          AWS_ACCESS_KEY_ID: s3.accessKeyId,
          AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
        },
        addresses: {},
        received: () => s3.requests.filter((r) => r.startsWith('PUT ')).length,
        close: () => s3.close(),
      };
    }
    case 'ntfy': {
      const ntfy = await startNtfy();
      return {
        env: { NTFY_URL: ntfy.url },
        addresses: {},
        received: () => ntfy.messages.length,
        close: () => ntfy.close(),
      };
    }
  }
}
