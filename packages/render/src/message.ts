/**
 * `@orgreport/render/message`: the message that goes with a report, from the Handlebars templates of
 * `templates/mail/` (a user template directory's `mail/` overrides them file by file): subject, text
 * and HTML bodies for mail, and for chat destinations the "what changed" paragraph and the headline
 * figures as the report formats them. Made from the model as the reader may see it (the model
 * `renderDocuments` returns), so a message can say no more than the documents.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BRIEF_FIGURES, type Figure, type FigureId, type ReportModel } from '@orgreport/metrics';
import { templatesDir } from '@orgreport/templates';
import { reportActions } from './actions.ts';
import { formatFigure, formatFigureChange, formatInstant } from './format.ts';
import { whatChangedSentences } from './what-changed.ts';

/** Message templates compiled lately, by their source (and escaping). */
const compiledMessages = new Map<string, (context: unknown) => string>();

/** A mail template that cannot be read or does not compile (an input error of the caller). */
export class MessageTemplateError extends Error {
  override readonly name = 'MessageTemplateError';
}

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

/** A report's message: the mail's subject and bodies, and what chat destinations show. */
export interface ReportMessage {
  subject: string;
  text: string;
  html: string;
  /** The "what changed" paragraph. */
  summary: string;
  /** The headline figures as the report formats them. */
  facts: Array<{ label: string; value: string }>;
  /** What to do this month (a scoped report's actions, as its first page says them). */
  actions: Array<{ title: string; text: string }>;
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
  // A scoped report's mail tells its own figures (the brief's), each beside the organization's.
  const ids: ReadonlyArray<FigureId> = model.scope ? BRIEF_FIGURES : MAIL_HEADLINE_IDS;
  return {
    organization: model.organization.name,
    /** The scope a scoped report is for (`Team Platform`); null for the organization's. */
    scope: model.scope?.label ?? null,
    month: model.period.month,
    periodStart: model.period.start,
    periodEnd: model.period.end,
    partial: model.partial,
    comparisonMonth: model.comparisonHasData ? (model.comparison?.month ?? null) : null,
    /** When the report was made, as the report prints it (`2026-11-22 06:00 UTC`). */
    generatedAt: formatInstant(model.generatedAt),
    /** The "what changed" paragraph of the report's first page. */
    whatChanged: whatChangedSentences(model).join(' '),
    headline: ids.flatMap((id) => {
      const f = byId.get(id);
      return f
        ? [
            {
              id,
              label: f.label,
              value: format(f),
              change: f.change === null ? null : formatFigureChange(f),
              organization:
                typeof f.organization === 'number' ? format({ ...f, value: f.organization }) : null,
            },
          ]
        : [];
    }),
    /** What to do this month, with the people named where the reader may see them. */
    actions: reportActions(model).map((a, i) => ({
      number: i + 1,
      title: a.title,
      text: a.text,
      people:
        a.people.length > 0
          ? `${a.people.join(', ')}${a.morePeople > 0 ? ` and ${a.morePeople} more` : ''}`
          : null,
    })),
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
        throw new MessageTemplateError(
          `template ${join(overrideDir, 'mail', name)} cannot be read (${code})`,
        );
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
      throw new MessageTemplateError(`mail template ${file}: ${(error as Error).message}`);
    }
  }
}

/** Renders subject, text and HTML bodies from the mail templates (a fresh Handlebars environment per call). */
export async function composeMessage(
  model: ReportModel,
  attachments: string[],
  options: { templates?: string; format?: FigureFormatter } = {},
): Promise<ReportMessage> {
  const { default: Handlebars } = await import('handlebars');
  const context = mailContext(model, attachments, options.format);
  const render = async (file: string, escapeHtml: boolean) => {
    const source = await templateText(file, options.templates);
    try {
      // A distribution composes hundreds of messages from the same templates: compiled once.
      const key = `${escapeHtml}\u0000${source}`;
      let template = compiledMessages.get(key);
      if (!template) {
        template = Handlebars.create().compile(source, { noEscape: !escapeHtml, strict: false });
        if (compiledMessages.size >= 16) compiledMessages.delete(compiledMessages.keys().next().value!);
        compiledMessages.set(key, template);
      }
      return template(context);
    } catch (error) {
      throw new MessageTemplateError(`mail template ${file}: ${(error as Error).message}`);
    }
  };
  return {
    // A subject is one line: newlines from a template or a hostile organization name are folded.
    subject: (await render(TEMPLATE_FILES.subject, false)).replace(/\s+/g, ' ').trim(),
    text: await render(TEMPLATE_FILES.text, false),
    html: await render(TEMPLATE_FILES.html, true),
    summary: context.whatChanged,
    facts: context.headline.map((f) => ({
      label: f.label,
      value: f.change ? `${f.value} (${f.change})` : f.value,
    })),
    actions: context.actions.map((a) => ({
      title: a.title,
      text: a.people ? `${a.text} ${a.people}.` : a.text,
    })),
  };
}
