/**
 * `orgreport distribute` against the emulator and a real SMTP server on loopback: every manager
 * gets one mail with their people's PDF; nothing of one team reaches the other team's manager in
 * any byte of any document or mail; a group under the minimum size shows no figure to a reader who
 * may not see per-person rows; a team under it gets no report; and a rerun sends nothing twice.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { pseudonymizer } from '@orgreport/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, documentText, envFor, pdfText, readWorkbook, sheetObjects, tempDir } from './helpers.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';

/** The organization's people as the API lists them: id, e-mail and full name. */
async function organizationUsers(emulator: RunningEmulator) {
  const run = await cli(['api', 'users', 'list', '--all'], { env: envFor(emulator) });
  expect(run.code, run.err).toBe(0);
  return run.out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: string; email: string; firstName?: string; lastName?: string })
    .map((u) => ({
      id: u.id,
      email: u.email.toLowerCase(),
      name: `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim(),
    }));
}

/** The directory's rows as objects. */
type DirectoryRow = { email: string; team: string; manager: string } & Record<string, string>;

function directoryRows(file: string): DirectoryRow[] {
  const [header, ...lines] = readFileSync(file, 'utf8').trim().split('\r\n');
  const names = header!.split(',');
  return lines.map((l) => {
    const values = l.split(',');
    return Object.fromEntries(names.map((n, i) => [n, values[i] ?? ''])) as DirectoryRow;
  });
}

let emulator: RunningEmulator;
let smtp: TestSmtp;
let dir: string;
let people: string;
let users: Awaited<ReturnType<typeof organizationUsers>>;
const KEY = 'test-pseudonym-key-0123456789';

beforeAll(async () => {
  const { startEmulator } = await import('@orgreport/emulator');
  emulator = await startEmulator({ seed: 7, users: 60, today: '2026-11-22' });
  smtp = await startSmtp();
  dir = tempDir('orgreport-distribute-');
  people = join(dir, 'people.csv');
  const made = await cli(['emulator', '--seed', '7', '--users', '60', '--directory', people]);
  expect(made.code, made.err).toBe(0);
  users = await organizationUsers(emulator);
});
afterAll(async () => {
  await emulator?.close();
  await smtp?.close();
});

const mailEnv = () => ({
  ...envFor(emulator),
  ORGREPORT_SMTP_URL: smtp.url,
  ORGREPORT_MAIL_FROM: 'reports@acme.test',
  ORGREPORT_PRICE_PER_CREDIT: '0.000004',
  ORGREPORT_PRICE_PER_SEAT: '19',
});

/** The mails the server received for `recipient` since `from`. */
const mailsTo = (recipient: string, from = 0) =>
  smtp.received
    .slice(from)
    .filter((m) => m.recipients.map((r) => r.toLowerCase()).includes(recipient.toLowerCase()));

describe('distribute', () => {
  it("gives each manager one mail with their people's PDF, and a rerun sends nothing", async () => {
    const out = join(dir, 'managers');
    const planned = await cli(
      ['distribute', '--month', '2026-10', '--directory', people, '--dry-run', '--json'],
      {
        env: mailEnv(),
      },
    );
    expect(planned.code, planned.err).toBe(0);
    const plan = JSON.parse(planned.out);
    const managers = new Set(
      directoryRows(people)
        .map((r) => r.manager)
        .filter(Boolean),
    );
    // Every manager with at least 5 people gets one delivery; nobody else does.
    const recipients = plan.deliveries.map((d: { recipient: string }) => d.recipient);
    expect(new Set(recipients).size).toBe(recipients.length);
    for (const r of recipients) expect(managers.has(r)).toBe(true);
    for (const d of plan.deliveries) expect(d.people).toBeGreaterThanOrEqual(5);
    expect(recipients.length + plan.heldBack.length).toBe(managers.size);

    const before = smtp.received.length;
    const run = await cli(['distribute', '--month', '2026-10', '--directory', people, '--out', out], {
      env: mailEnv(),
    });
    expect(run.code, run.err).toBe(0);
    for (const manager of recipients) {
      const mails = mailsTo(manager, before);
      expect(mails, manager).toHaveLength(1);
      const pdf = mails[0]!.parsed.attachments.find((a) => a.filename?.endsWith('.pdf'));
      expect(pdf?.filename).toMatch(/^orgreport-.*-2026-10-manager-/);
      const file = join(out, pdf!.filename!);
      expect(readFileSync(file).equals(pdf!.content)).toBe(true);
      // The report names its manager by name, as the organization's users give it.
      const name = users.find((u) => u.email === manager)!.name;
      expect(pdfText(file)).toContain(`${name}’s organization`);
      expect(mails[0]!.parsed.subject).toContain(`${name}’s organization`);
    }
    expect(smtp.received.length - before).toBe(recipients.length);

    const again = await cli(['distribute', '--month', '2026-10', '--directory', people, '--out', out], {
      env: mailEnv(),
    });
    expect(again.code, again.err).toBe(0);
    expect(smtp.received.length - before).toBe(recipients.length);
    expect(again.err).toMatch(new RegExp(`0 sent, ${recipients.length} already delivered`));
    // The ledger names every recipient: readable by its owner only.
    expect(readFileSync(join(out, 'deliveries.jsonl'), 'utf8')).toContain(recipients[0]);
    const mode = Number.parseInt(
      execFileSync('stat', ['-c', '%a', join(out, 'deliveries.jsonl')], { encoding: 'utf8' }),
      8,
    );
    expect(mode & 0o077).toBe(0);
  }, 180_000);

  it('splits the recipients between shards, each sent once; a run without shards or of another split then sends nothing', async () => {
    const out = join(dir, 'shards');
    const args = ['distribute', '--month', '2026-10', '--directory', people, '--out', out];
    const planned = await cli([...args, '--dry-run', '--json'], { env: mailEnv() });
    const recipients: string[] = JSON.parse(planned.out).deliveries.map(
      (d: { recipient: string }) => d.recipient,
    );
    const before = smtp.received.length;
    const sentBy: string[][] = [];
    for (const shard of ['1/2', '2/2']) {
      const from = smtp.received.length;
      const run = await cli([...args, '--shard', shard], { env: mailEnv() });
      expect(run.code, run.err).toBe(0);
      sentBy.push(smtp.received.slice(from).flatMap((m) => m.recipients.map((r) => r.toLowerCase())));
    }
    // Each split sent a part, the two parts are all the recipients, once each.
    expect(sentBy.every((s) => s.length > 0)).toBe(true);
    expect([...sentBy[0]!, ...sentBy[1]!].sort()).toEqual(recipients.map((r) => r.toLowerCase()).sort());
    expect(
      readdirSync(out)
        .filter((f) => f.startsWith('deliveries.') && f.endsWith('.jsonl'))
        .sort(),
    ).toEqual(['deliveries.part-1-of-2.jsonl', 'deliveries.part-2-of-2.jsonl']);
    // The ledger parts count for every later run: without shards, or split another way.
    for (const extra of [[], ['--shard', '1/3']]) {
      const again = await cli([...args, ...extra], { env: mailEnv() });
      expect(again.code, again.err).toBe(0);
      expect(smtp.received.length - before).toBe(recipients.length);
    }
  }, 180_000);

  it("lets nothing of one team reach another team's manager, in any byte of any document or mail", async () => {
    const rows = directoryRows(people);
    // The lead of Payments (the manager of its members) and the people of Platform.
    const lead = rows.find((r) => r.team === 'Payments' && rows.some((o) => o.manager === r.email))!.email;
    // Everyone under the lead, through every level of the manager column (any row of theirs).
    const reports = new Set<string>();
    for (let frontier = [lead.toLowerCase()]; frontier.length > 0; ) {
      const next = rows
        .filter((r) => frontier.includes(r.manager.toLowerCase()) && !reports.has(r.email.toLowerCase()))
        .map((r) => r.email.toLowerCase());
      for (const e of next) reports.add(e);
      frontier = next;
    }
    const platform = new Set(rows.filter((r) => r.team === 'Platform').map((r) => r.email.toLowerCase()));
    for (const p of reports) platform.delete(p); // a mover who joined Payments is the lead's now
    const planted = users.filter((u) => platform.has(u.email));
    expect(planted.length).toBeGreaterThanOrEqual(3);
    const own = users.filter((u) => reports.has(u.email));
    const plan = join(dir, 'plan.json');
    writeFileSync(
      plan,
      JSON.stringify({ rules: [{ each: 'manager', formats: ['pdf', 'xlsx', 'html', 'json'] }] }),
    );
    for (const pseudonyms of [false, true]) {
      const out = join(dir, pseudonyms ? 'leak-pseudonyms' : 'leak');
      const before = smtp.received.length;
      const run = await cli(
        [
          'distribute',
          '--month',
          '2026-10',
          '--directory',
          people,
          '--plan',
          plan,
          '--out',
          out,
          ...(pseudonyms ? ['--pseudonymize'] : []),
        ],
        { env: { ...mailEnv(), ORGREPORT_PSEUDONYM_KEY: KEY } },
      );
      expect(run.code, run.err).toBe(0);
      const mails = mailsTo(lead, before);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      const files = mail.parsed.attachments.map((a) => a.filename!);
      expect(files.map((f) => f.slice(f.lastIndexOf('.'))).sort()).toEqual([
        '.html',
        '.json',
        '.pdf',
        '.xlsx',
      ]);
      const texts = [
        mail.raw.toString('utf8'),
        mail.parsed.text ?? '',
        String(mail.parsed.html ?? ''),
        ...files.map((f) => documentText(join(out, f))),
      ];
      const p = pseudonymizer(KEY);
      const forbidden = planted.flatMap((u) => [
        u.email,
        u.id,
        ...(u.name.includes(' ') ? [u.name] : []),
        p.email(u.email),
        p.id(u.id),
      ]);
      for (const [i, text] of texts.entries()) {
        const lower = text.toLowerCase();
        for (const token of forbidden)
          expect(lower.includes(token.toLowerCase()), `${token} in text ${i}`).toBe(false);
      }
      // The scan can find what is there: the lead's own people are in the lead's documents.
      const json = readFileSync(join(out, files.find((f) => f.endsWith('.json'))!), 'utf8');
      const ownActive = JSON.parse(json).users.map((u: { email: string }) => u.email);
      expect(ownActive.length).toBeGreaterThan(0);
      for (const email of ownActive) {
        const person = own.find((u) => (pseudonyms ? p.email(u.email) : u.email) === email);
        expect(person, email).toBeDefined();
      }
      if (pseudonyms) {
        // No real e-mail or user id of anyone in any document of the run.
        for (const f of readdirSync(out).filter((n) => /\.(pdf|xlsx|html|json)$/.test(n))) {
          const text = documentText(join(out, f)).toLowerCase();
          for (const u of users) {
            expect(text.includes(u.email), `${u.email} in ${f}`).toBe(false);
            expect(text.includes(u.id.toLowerCase()), `${u.id} in ${f}`).toBe(false);
          }
        }
      }
    }
  }, 240_000);

  it('refuses in a dry run what the run would: a target no destination takes, --resend of a stranger', async () => {
    const plan = join(dir, 'bad-target.json');
    writeFileSync(plan, JSON.stringify({ rules: [{ scope: 'org', to: ['not-an-email'] }] }));
    const base = ['distribute', '--month', '2026-10', '--directory', people, '--dry-run'];
    const bad = await cli([...base, '--plan', plan], { env: mailEnv() });
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(
      /^orgreport: delivery target "not-an-email": no destination takes "not-an-email"/,
    );
    const stranger = await cli([...base, '--resend', 'nobody@example.com'], { env: mailEnv() });
    expect(stranger.code).toBe(2);
    expect(stranger.err).toMatch(/^orgreport: --resend: nobody@example.com is not a recipient of this plan/);
    // With a plan, --email addresses are not used: said, not silently dropped.
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ rules: [{ scope: 'org', to: ['cfo@acme.test'] }] }));
    const email = await cli([...base, '--plan', good, '--email', 'ceo@acme.test'], { env: mailEnv() });
    expect(email.code, email.err).toBe(0);
    expect(email.err).toMatch(/the --email addresses \(ceo@acme.test\) go with the default plan only/);
    expect(email.out).not.toContain('ceo@acme.test');
    // --formats is the default plan's: every manager's report in them; with a plan, refused.
    const formats = await cli([...base, '--formats', 'pdf,xlsx', '--json'], { env: mailEnv() });
    expect(formats.code, formats.err).toBe(0);
    const deliveries = (JSON.parse(formats.out) as { deliveries: Array<{ formats: string[] }> }).deliveries;
    expect(deliveries.length).toBeGreaterThan(0);
    for (const d of deliveries) expect(d.formats).toEqual(['pdf', 'xlsx']);
    // Read in a terminal: every delivery's format and count in line, however long its address.
    const table = await cli([...base, '--formats', 'pdf,xlsx'], { env: mailEnv() });
    expect(table.code, table.err).toBe(0);
    const rows = table.out.split('\n').filter((l) => l.includes(' pdf,xlsx '));
    expect(rows.length).toBe(deliveries.length);
    expect(new Set(rows.map((l) => l.indexOf(' pdf,xlsx '))).size).toBe(1);
    expect(new Set(rows.map((l) => l.indexOf(' people  per-person rows'))).size).toBe(1);
    const both = await cli([...base, '--plan', good, '--formats', 'xlsx'], { env: mailEnv() });
    expect(both.code).toBe(2);
    expect(both.err).toMatch(
      /^orgreport: --formats applies to the default plan only: the plan .*good\.json gives each report its formats/,
    );
  });

  it('takes an address however written (any case, with or without mailto:) as one recipient and one delivery', async () => {
    const plan = join(dir, 'one-reader.json');
    writeFileSync(
      plan,
      JSON.stringify({
        rules: [
          {
            scope: 'org',
            to: ['Finance.Lead@acme.test', 'MAILTO:finance.lead@acme.test', 'mailto:FINANCE.LEAD@ACME.TEST'],
          },
          { scope: 'org', to: ['MAILTO:Auditor@acme.test'] },
        ],
      }),
    );
    const dry = await cli(
      ['distribute', '--month', '2026-10', '--directory', people, '--plan', plan, '--dry-run', '--json'],
      { env: mailEnv() },
    );
    expect(dry.code, dry.err).toBe(0);
    const recipients = JSON.parse(dry.out).deliveries.map((d: { recipient: string }) => d.recipient);
    expect(recipients).toEqual(['Finance.Lead@acme.test', 'Auditor@acme.test']);
  });

  it('shows no figure of a group under the minimum size to a reader of groups only, but the budget they own, and gives a team under it no report', async () => {
    const out = join(dir, 'owners');
    const plan = join(dir, 'owners.json');
    writeFileSync(
      plan,
      JSON.stringify({
        rules: [
          { each: 'cost-center', owner: 'cost_center_owner', formats: ['pdf', 'xlsx', 'html', 'json'] },
          { each: 'team', owner: 'cost_center_owner', formats: ['pdf'] },
        ],
      }),
    );
    const dry = await cli(
      ['distribute', '--month', '2026-10', '--directory', people, '--plan', plan, '--dry-run', '--json'],
      {
        env: mailEnv(),
      },
    );
    expect(dry.code, dry.err).toBe(0);
    const planned = JSON.parse(dry.out);
    expect(planned.heldBack).toContainEqual(
      expect.objectContaining({
        scope: 'team:Leadership',
        people: 3,
        reason: expect.stringMatching(/fewer than the minimum group size of 5/),
      }),
    );
    expect(planned.deliveries.some((d: { scope: string }) => d.scope === 'team:Leadership')).toBe(false);
    const text = await cli(
      ['distribute', '--month', '2026-10', '--directory', people, '--plan', plan, '--dry-run'],
      { env: mailEnv() },
    );
    expect(text.out).toMatch(
      /^1 scope held back \(no report\):\n.*team:Leadership .*3 people, fewer than the minimum group size of 5/m,
    );

    // Leadership's figures as the organization report shows them to its readers, who see everyone.
    const org = await cli(
      [
        'monthly',
        '--month',
        '2026-10',
        '--directory',
        people,
        '--out',
        join(dir, 'org'),
        '--formats',
        'xlsx',
        '--json',
      ],
      {
        env: mailEnv(),
      },
    );
    expect(org.code, org.err).toBe(0);
    const teams = sheetObjects(
      readWorkbook(
        join(
          dir,
          'org',
          JSON.parse(org.out)
            .outputs.find((o: { kind: string }) => o.kind === 'xlsx')
            .path.split('/')
            .pop(),
        ),
      ).Teams,
    );
    const leadership = teams.find((t) => t.team === 'Leadership')!;
    expect(leadership.credits as number).toBeGreaterThan(10_000);

    const before = smtp.received.length;
    const run = await cli(
      ['distribute', '--month', '2026-10', '--directory', people, '--plan', plan, '--out', out],
      { env: mailEnv() },
    );
    expect(run.code, run.err).toBe(0);
    const head = directoryRows(people).find((r) => r.team === 'Leadership' && !r.manager)!.email;
    const mails = mailsTo(head, before);
    expect(mails.length).toBeGreaterThanOrEqual(1);
    const credits = leadership.credits as number;
    const shown = [String(credits), credits.toLocaleString('en-US')];
    const attachments = mails.flatMap((m) => m.parsed.attachments.map((a) => a.filename!));
    const slug = String(leadership.cost_center)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const ownBudget = (f: string) => f.includes(`-cost-center-${slug}-`);
    // The reports of other teams do not show Leadership's figures, nor name it in a table.
    const others = attachments.filter((f) => !ownBudget(f));
    expect(others.length).toBeGreaterThanOrEqual(1);
    for (const f of others) {
      const t = documentText(join(out, f));
      expect(t).not.toContain('Leadership</td><td class="num">');
      for (const s of shown) expect(t.includes(s), `${s} in ${f}`).toBe(false);
    }
    // Its cost center's owner reads the budget they own whole: Leadership's row is theirs (privacy
    // protects people, not budgets), with the organization's figures; no person is named.
    const json = attachments.find((f) => ownBudget(f) && f.endsWith('-groups.json'))!;
    const model = JSON.parse(readFileSync(join(out, json), 'utf8'));
    expect(model.privacy.personRows).toBe('none');
    expect(model.users).toEqual([]);
    const own = model.sections.teams.rows.find((r: { team: string }) => r.team === 'Leadership');
    expect(own).toMatchObject({ members: 3, credits });
    // How those 3 people work is not budget: their autonomy and delegation mix are held back.
    expect(own).toMatchObject({ autonomy_mean: null, delegation: {} });
    // With it, the next smallest teams' until the teams held back make the minimum: the cost center's
    // own autonomy and mix are shown, and less the other teams' they would tell Leadership's.
    type Row = { team: string; autonomy_mean: number | null; delegation_users: number };
    const rows = model.sections.teams.rows as Row[];
    const held = rows.filter((r) => r.autonomy_mean === null && r.delegation_users > 0);
    const heldPeople = held.reduce((a, r) => a + r.delegation_users, 0);
    expect(held.length).toBeGreaterThan(1);
    expect(heldPeople).toBeGreaterThanOrEqual(model.privacy.minGroupSize);
    expect(model.privacy.suppressed).toContainEqual({
      where: 'Teams: autonomy and delegation',
      group: `${held.length} groups`,
      people: heldPeople,
    });
  }, 240_000);

  it('partitions the organization: the teams\u2019 credits add up to those of the directory\u2019s people', async () => {
    const out = join(dir, 'teams');
    const plan = join(dir, 'teams.json');
    writeFileSync(
      plan,
      JSON.stringify({
        rules: [{ each: 'team', owner: 'cost_center_owner', formats: ['json'], people: 'all' }],
        minGroupSize: 1,
      }),
    );
    const run = await cli(
      [
        'distribute',
        '--month',
        '2026-10',
        '--directory',
        people,
        '--plan',
        plan,
        '--out',
        out,
        '--min-group-size',
        '1',
      ],
      {
        env: mailEnv(),
      },
    );
    expect(run.code, run.err).toBe(0);
    const credits = readdirSync(out)
      .filter((f) => f.endsWith('.json') && f.includes('-team-'))
      .map(
        (f) =>
          JSON.parse(readFileSync(join(out, f), 'utf8')).figures.find(
            (x: { id: string }) => x.id === 'credits',
          ).value as number,
      );
    expect(credits.length).toBe(new Set(directoryRows(people).map((r) => r.team)).size);
    const listed = new Set(directoryRows(people).map((r) => r.email.toLowerCase()));
    const all = await cli(
      ['monthly', '--month', '2026-10', '--out', join(dir, 'all'), '--formats', 'json', '--json'],
      { env: envFor(emulator) },
    );
    const model = JSON.parse(
      readFileSync(JSON.parse(all.out).outputs.find((o: { kind: string }) => o.kind === 'json').path, 'utf8'),
    );
    const ofListed = model.users
      .filter((u: { email: string }) => listed.has(u.email.toLowerCase()))
      .reduce((a: number, u: { credits: number }) => a + u.credits, 0);
    expect(credits.reduce((a, b) => a + b, 0)).toBe(ofListed);

    // The demo organization too: its seven teams (with the three people who moved in October) add up
    // to the credits its chargeback gives the cost centers of the directory's people.
    const demo = join(dir, 'demo-teams');
    const teams = await cli(
      ['distribute', '--demo', '--plan', plan, '--out', demo, '--min-group-size', '1'],
      { env: {} },
    );
    expect(teams.code, teams.err).toBe(0);
    const demoCredits = readdirSync(demo)
      .filter((f) => f.endsWith('.json') && f.includes('-team-'))
      .map(
        (f) =>
          JSON.parse(readFileSync(join(demo, f), 'utf8')).figures.find(
            (x: { id: string }) => x.id === 'credits',
          ).value as number,
      );
    expect(demoCredits.length).toBe(7);
    const whole = await cli(
      ['monthly', '--demo', '--out', join(dir, 'demo-all'), '--formats', 'json', '--json'],
      { env: {} },
    );
    const demoModel = JSON.parse(
      readFileSync(
        JSON.parse(whole.out).outputs.find((o: { kind: string }) => o.kind === 'json').path,
        'utf8',
      ),
    );
    const chargeback = demoModel.sections.chargeback.rows as Array<{
      kind: string;
      credits: number;
      cost_center: string;
    }>;
    const attributed = chargeback
      .filter((r) => r.kind === 'cost_center' && r.cost_center !== 'Unassigned')
      .reduce((a, r) => a + r.credits, 0);
    expect(demoCredits.reduce((a, b) => a + b, 0)).toBe(attributed);
  }, 240_000);
});
