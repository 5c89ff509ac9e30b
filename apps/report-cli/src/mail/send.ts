/**
 * Delivery by e-mail: subject and bodies from the Handlebars templates of `templates/mail/` (a user
 * template directory's `mail/` overrides them file by file), the PDF attached and, on request, the
 * workbook, sent through nodemailer over SMTP.
 */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Figure, ReportModel } from '@orgreport/metrics';
import {
  formatFigure,
  formatFigureChange,
  formatInstant,
  whatChangedSentences,
} from '@orgreport/render/format';
import { templatesDir } from '@orgreport/templates';
import { CliError, UsageError } from '../errors.ts';

/** Figures shown in the mail, in this order. */
export const MAIL_HEADLINE_IDS = [
  'credits',
  'active_users',
  'seats',
  'seat_utilization',
  'avg_dau',
  'tool_calls',
  'sessions',
  'git_prs_created',
  'autonomy_mean',
  'readiness_org_level',
] as const;

const TEMPLATE_FILES = { subject: 'subject.hbs', text: 'body.txt.hbs', html: 'body.html.hbs' } as const;

export interface MailMessage {
  subject: string;
  text: string;
  html: string;
}

/** Formats a figure's value for the mail: by default the report's own formatter, as in the PDF. */
export type FigureFormatter = (figure: Figure) => string;

/** The values the mail templates see. */
export function mailContext(
  model: ReportModel,
  attachments: string[],
  format: FigureFormatter = formatFigure,
) {
  const byId = new Map(model.figures.map((f) => [f.id, f]));
  return {
    organization: model.organization.name,
    month: model.period.month,
    periodStart: model.period.start,
    periodEnd: model.period.end,
    partial: model.partial,
    comparisonMonth: model.comparisonHasData ? (model.comparison?.month ?? null) : null,
    /** When the report was made, as the report prints it (`2026-11-22 06:00 UTC`). */
    generatedAt: formatInstant(model.generatedAt),
    /** The "what changed" paragraph of the report's first page. */
    whatChanged: whatChangedSentences(model).join(' '),
    headline: MAIL_HEADLINE_IDS.flatMap((id) => {
      const f = byId.get(id);
      return f
        ? [{ id, label: f.label, value: format(f), change: f.change === null ? null : formatFigureChange(f) }]
        : [];
    }),
    attachments,
  };
}

async function templateText(name: string, overrideDir: string | undefined): Promise<string> {
  if (overrideDir) {
    try {
      return await readFile(join(overrideDir, 'mail', name), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT')
        throw new UsageError(`template ${join(overrideDir, 'mail', name)} cannot be read (${code})`);
    }
  }
  return readFile(join(templatesDir, 'mail', name), 'utf8');
}

/**
 * Parses the mail templates a delivery would use (each override in `DIR/mail/` or the built-in one),
 * so a broken one is an input error before anything is fetched, not after the report was written.
 */
export async function checkMailTemplates(overrideDir: string | undefined): Promise<void> {
  const { default: Handlebars } = await import('handlebars');
  for (const file of Object.values(TEMPLATE_FILES)) {
    const source = await templateText(file, overrideDir);
    try {
      Handlebars.parse(source);
    } catch (error) {
      throw new UsageError(`mail template ${file}: ${(error as Error).message}`);
    }
  }
}

/** Renders subject, text and HTML bodies from the mail templates (a fresh Handlebars environment per call). */
export async function composeMail(
  model: ReportModel,
  attachments: string[],
  options: { templates?: string; format?: FigureFormatter } = {},
): Promise<MailMessage> {
  const { default: Handlebars } = await import('handlebars');
  const hb = Handlebars.create();
  const context = mailContext(model, attachments, options.format);
  const render = async (file: string, escapeHtml: boolean) => {
    const source = await templateText(file, options.templates);
    try {
      return hb.compile(source, { noEscape: !escapeHtml, strict: false })(context);
    } catch (error) {
      throw new UsageError(`mail template ${file}: ${(error as Error).message}`);
    }
  };
  return {
    // A subject is one line: newlines from a template or a hostile organization name are folded.
    subject: (await render(TEMPLATE_FILES.subject, false)).replace(/\s+/g, ' ').trim(),
    text: await render(TEMPLATE_FILES.text, false),
    html: await render(TEMPLATE_FILES.html, true),
  };
}

export interface SendOptions {
  smtpUrl: string;
  from: string;
  to: string[];
  message: MailMessage;
  /** Paths of the files to attach. */
  attachments: string[];
}

/** Sends the message over SMTP; returns the server's message id. Failures name the SMTP host, never its credentials. */
export async function sendMail(options: SendOptions): Promise<{ messageId: string; accepted: string[] }> {
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(options.smtpUrl);
  try {
    const info = await transport.sendMail({
      from: options.from,
      to: options.to,
      subject: options.message.subject,
      text: options.message.text,
      html: options.message.html,
      attachments: options.attachments.map((path) => ({ filename: basename(path), path })),
    });
    return {
      messageId: info.messageId,
      accepted: (info.accepted as Array<string | { address: string }>).map((a) =>
        typeof a === 'string' ? a : a.address,
      ),
    };
  } catch (error) {
    const host = URL.canParse(options.smtpUrl) ? new URL(options.smtpUrl).host : 'the SMTP server';
    throw new CliError(`sending the report by mail through ${host} failed: ${(error as Error).message}`, 1, {
      cause: error,
    });
  } finally {
    transport.close();
  }
}
