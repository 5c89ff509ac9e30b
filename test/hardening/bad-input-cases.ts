/**
 * The bad inputs the hardening suite tries, each with the message (a part of the last line on
 * stderr) and the exit code it must get. `bad-input.test.ts` runs every case and checks that
 * the manual's Bad input page (docs/bad-input.md) holds exactly the table {@link badInputTable} prints from them.
 *
 * In `argv`, `env` values and `files` contents, `$DIR` stands for the case's own temporary folder.
 */

export type BadInputKind =
  | 'date'
  | 'month'
  | 'config value'
  | 'config file'
  | 'limits file'
  | 'hook event'
  | 'template directory'
  | 'output folder';

export interface BadInputCase {
  kind: BadInputKind;
  /** What was tried, for the table. */
  input: string;
  argv: string[];
  /** Files written into `$DIR` first (relative path -> content; a path ending in `/` is a folder). */
  files?: Record<string, string>;
  env?: Record<string, string>;
  stdin?: string;
  /** Whether the run is pointed at the emulator (base URL and a Manager key). */
  connect: boolean;
  /** A part of the error message. */
  message: string;
  exitCode: number;
}

const monthly = (...args: string[]) => ['monthly', '--out', '$DIR/out', '--formats', 'json', ...args];
const htmlReport = (...args: string[]) => ['monthly', '--out', '$DIR/out', '--formats', 'html', ...args];
const limitsApply = (file: string) => ['limits', 'apply', `$DIR/${file}`, '--dry-run'];
const hookRecord = ['hook', 'record', '--hook-log', '$DIR/hooks.jsonl', '--timeout', '500'];

export const BAD_INPUT_CASES: BadInputCase[] = [
  // Dates
  {
    kind: 'date',
    input: '`--today 2026-02-30` (no such day)',
    argv: monthly('--today', '2026-02-30'),
    connect: true,
    message: '--today: expected a real calendar day as YYYY-MM-DD (got "2026-02-30")',
    exitCode: 2,
  },
  {
    kind: 'date',
    input: '`--today yesterday`',
    argv: monthly('--today', 'yesterday'),
    connect: true,
    message: '--today: expected a real calendar day as YYYY-MM-DD (got "yesterday")',
    exitCode: 2,
  },
  {
    kind: 'date',
    input: '`api analytics tokens --start-date 10/01/2026`',
    argv: ['api', 'analytics', 'tokens', '--start-date', '10/01/2026', '--end-date', '2026-10-31'],
    connect: true,
    message: 'startDate "10/01/2026" is invalid: expected a real calendar day as YYYY-MM-DD',
    exitCode: 2,
  },
  {
    kind: 'date',
    input: '`api analytics tokens`, start after end',
    argv: ['api', 'analytics', 'tokens', '--start-date', '2026-10-31', '--end-date', '2026-10-01'],
    connect: true,
    message: 'startDate "2026-10-31" is invalid: must not be after endDate (2026-10-01)',
    exitCode: 2,
  },
  {
    kind: 'date',
    input: '`api analytics tokens`, start before the first data day (2026-01-14)',
    argv: ['api', 'analytics', 'tokens', '--start-date', '2026-01-01', '--end-date', '2026-01-20'],
    connect: true,
    message: 'startDate "2026-01-01" is invalid: analytics data starts on 2026-01-14',
    exitCode: 2,
  },
  {
    kind: 'date',
    input: '`api analytics tokens`, end date today (not over)',
    argv: ['api', 'analytics', 'tokens', '--start-date', '2026-11-01', '--end-date', '2026-11-22'],
    connect: true,
    message: 'endDate "2026-11-22" is invalid: must be before today in UTC (2026-11-22)',
    exitCode: 2,
  },
  // Months
  {
    kind: 'month',
    input: '`--month 2026-13`',
    argv: monthly('--month', '2026-13'),
    connect: true,
    message: '--month "2026-13" is invalid: expected a month as YYYY-MM with MM from 01 to 12',
    exitCode: 2,
  },
  {
    kind: 'month',
    input: '`--month 2026-1`',
    argv: monthly('--month', '2026-1'),
    connect: true,
    message: '--month "2026-1" is invalid: expected a month as YYYY-MM with MM from 01 to 12',
    exitCode: 2,
  },
  {
    kind: 'month',
    input: '`--month ""` (empty)',
    argv: monthly('--month', ''),
    connect: true,
    message: '--month "" is invalid: expected a month as YYYY-MM',
    exitCode: 2,
  },
  {
    kind: 'month',
    input: '`--month 2026-11` (the current month, without `--partial`)',
    argv: monthly('--month', '2026-11'),
    connect: true,
    message:
      'the month is not over (data runs up to 2026-11-21); ask for a partial report (--partial) or choose 2026-10',
    exitCode: 2,
  },
  {
    kind: 'month',
    input: '`--month 2025-12` (before the data)',
    argv: monthly('--month', '2025-12'),
    connect: true,
    message: 'analytics data starts on 2026-01-14; choose a later month',
    exitCode: 2,
  },
  {
    kind: 'month',
    input: '`--month 2027-03` (the future)',
    argv: monthly('--month', '2027-03'),
    connect: true,
    message: 'no day of this month is over yet (data runs up to 2026-11-21)',
    exitCode: 2,
  },
  // Config values
  {
    kind: 'config value',
    input: '`--quiet` with `--verbose`',
    argv: monthly('--quiet', '--verbose'),
    connect: true,
    message: '--quiet and --verbose ask for opposite things: give one of them',
    exitCode: 2,
  },
  {
    kind: 'config value',
    input: '`--demo` with `--base-url` (the demo starts its own emulator)',
    argv: monthly('--demo', '--base-url', 'https://api.example.com'),
    connect: false,
    message:
      '--demo reads the demo organization from an emulator of its own, so --base-url https://api.example.com would go unused',
    exitCode: 2,
  },
  {
    kind: 'config value',
    input: '`distribute --plan` with `--formats` (the plan gives each report its formats)',
    argv: ['distribute', '--demo', '--dry-run', '--plan', '$DIR/plan.json', '--formats', 'xlsx'],
    files: { 'plan.json': '{"rules":[{"each":"manager"}]}' },
    connect: false,
    message: '--formats applies to the default plan only',
    exitCode: 2,
  },
  {
    kind: 'config value',
    input: '`--formats pdf,docx`',
    argv: monthly().slice(0, 3).concat(['--formats', 'pdf,docx']),
    connect: true,
    message: '--formats: expected formats among pdf, xlsx, html, json (got ["pdf","docx"])',
    exitCode: 2,
  },
  {
    kind: 'config value',
    input: '`--base-url ftp://example.com`',
    argv: monthly('--base-url', 'ftp://example.com'),
    connect: true,
    message: '--base-url: expected an http(s) URL (got "ftp://example.com")',
    exitCode: 2,
  },
  {
    kind: 'config value',
    input: '`--email not-an-address`',
    argv: monthly('--email', 'not-an-address'),
    connect: true,
    message: '--email: expected an e-mail address (got ["not-an-address"])',
    exitCode: 2,
  },
  {
    kind: 'config value',
    input: '`ORGREPORT_LOG_LEVEL=loud`',
    argv: monthly(),
    env: { ORGREPORT_LOG_LEVEL: 'loud' },
    connect: true,
    message:
      'ORGREPORT_LOG_LEVEL: Invalid option: expected one of "error"|"warn"|"info"|"debug" (got "loud")',
    exitCode: 2,
  },
  {
    kind: 'config value',
    input: '`ORGREPORT_PRICE_PER_CREDIT=-1`',
    argv: monthly(),
    env: { ORGREPORT_PRICE_PER_CREDIT: '-1' },
    connect: true,
    message: 'ORGREPORT_PRICE_PER_CREDIT: must be a positive number (got "-1")',
    exitCode: 2,
  },
  {
    kind: 'config value',
    input: '`ORGREPORT_CHROMIUM` naming no file, with a PDF to print (checked before connecting)',
    argv: ['monthly', '--out', '$DIR/out', '--formats', 'pdf'],
    env: { ORGREPORT_CHROMIUM: '$DIR/no-chromium' },
    connect: false,
    message:
      'no-chromium (ENOENT) to print the PDF: install it (bash scripts/setup.sh, or apt-get install chromium-headless-shell)',
    exitCode: 2,
  },
  {
    kind: 'config value',
    input: 'no API key at all',
    argv: monthly(),
    env: { ORGREPORT_API_KEY: '' },
    connect: true,
    message: 'no API key: set ORGREPORT_API_KEY or "apiKey" in the config file',
    exitCode: 3,
  },
  // Config files
  {
    kind: 'config file',
    input: '`--config` file that is not JSON',
    argv: monthly('--config', '$DIR/config.json'),
    files: { 'config.json': '{ "baseUrl": ' },
    connect: true,
    message: 'config.json: not valid JSON (Unexpected end of JSON input)',
    exitCode: 2,
  },
  {
    kind: 'config file',
    input: '`--config` file that does not exist',
    argv: monthly('--config', '$DIR/missing.json'),
    connect: true,
    message: 'missing.json: cannot be read (ENOENT)',
    exitCode: 2,
  },
  {
    kind: 'config file',
    input: '`--config` with `"pricePerCredit": "cheap"`',
    argv: monthly('--config', '$DIR/config.json'),
    files: { 'config.json': '{ "pricePerCredit": "cheap" }' },
    connect: true,
    message: 'config.json: pricePerCredit: Invalid input: expected number, received string',
    exitCode: 2,
  },
  {
    kind: 'config file',
    input: '`--config` with `"formats": ["pdf", "docx"]`',
    argv: monthly('--config', '$DIR/config.json'),
    files: { 'config.json': '{ "formats": ["pdf", "docx"] }' },
    connect: true,
    message: 'config.json: formats.1: expected formats among pdf, xlsx, html, json',
    exitCode: 2,
  },
  {
    kind: 'config file',
    input: '`--config` file that is a JSON array',
    argv: monthly('--config', '$DIR/config.json'),
    files: { 'config.json': '["pdf"]' },
    connect: true,
    message: 'config.json: expected an object of settings (Invalid input: expected object, received array)',
    exitCode: 2,
  },
  // Limits files
  {
    kind: 'limits file',
    input: 'CSV row with an e-mail that is not one',
    argv: limitsApply('limits.csv'),
    files: { 'limits.csv': 'email,limit\nana@example.com,100\nnot-an-email,50\n' },
    connect: true,
    message: 'row 3 not-an-email: email "not-an-email" is not an e-mail address',
    exitCode: 2,
  },
  {
    kind: 'limits file',
    input: 'CSV rows with a negative, a non-numeric and an empty limit',
    argv: limitsApply('limits.csv'),
    files: { 'limits.csv': 'email,limit\na@example.com,-5\nb@example.com,lots\nc@example.com,\n' },
    connect: true,
    message: 'row 3 b@example.com: limit "lots" is not a non-negative number',
    exitCode: 2,
  },
  {
    kind: 'limits file',
    input: 'CSV with the same e-mail twice, different limits',
    argv: limitsApply('limits.csv'),
    files: { 'limits.csv': 'email,limit\na@example.com,5\nA@example.com,7\n' },
    connect: true,
    message: 'row 3 A@example.com: duplicate of row 2',
    exitCode: 2,
  },
  {
    kind: 'limits file',
    input: 'CSV without the `email,limit` header',
    argv: limitsApply('limits.csv'),
    files: { 'limits.csv': 'a@example.com,5\n' },
    connect: true,
    message: 'limits.csv: the first line must name the columns "email" and "limit"',
    exitCode: 2,
  },
  {
    kind: 'limits file',
    input: 'JSON limits file that is an object, not an array',
    argv: limitsApply('limits.json'),
    files: { 'limits.json': '{"email":"a@example.com","limit":5}' },
    connect: true,
    message: 'limits.json: expected a JSON array of {"email", "limit"} objects',
    exitCode: 2,
  },
  {
    kind: 'limits file',
    input: 'limits file that does not exist',
    argv: limitsApply('missing.csv'),
    connect: true,
    message: 'missing.csv: cannot be read (ENOENT)',
    exitCode: 2,
  },
  // Hook events
  {
    kind: 'hook event',
    input: 'stdin that is not JSON',
    argv: hookRecord,
    stdin: 'Stop hook fired',
    connect: false,
    message: 'hook event "Stop hook fired" is invalid: expected a JSON object',
    exitCode: 1,
  },
  {
    kind: 'hook event',
    input: 'JSON without `hook_event_name`',
    argv: hookRecord,
    stdin: '{"session_id":"s1","cwd":"/repo"}',
    connect: false,
    message: 'hook event.hook_event_name (missing) is invalid',
    exitCode: 1,
  },
  {
    kind: 'hook event',
    input: 'a JSON array instead of an event',
    argv: hookRecord,
    stdin: '[{"hook_event_name":"Stop"}]',
    connect: false,
    message: 'is invalid: Invalid input: expected object, received array',
    exitCode: 1,
  },
  {
    kind: 'hook event',
    input: 'empty stdin',
    argv: hookRecord,
    stdin: '',
    connect: false,
    message: 'no hook event on stdin (expected one JSON object)',
    exitCode: 1,
  },
  // Template directories
  {
    kind: 'template directory',
    input: '`--templates` folder that does not exist',
    argv: monthly('--templates', '$DIR/no-such-templates'),
    connect: true,
    message: 'no-such-templates: not a readable directory (ENOENT)',
    exitCode: 2,
  },
  {
    kind: 'template directory',
    input: '`--templates` pointing at a file',
    argv: monthly('--templates', '$DIR/layout.hbs'),
    files: { 'layout.hbs': '<html></html>' },
    connect: true,
    message: 'layout.hbs: not a readable directory (not a directory)',
    exitCode: 2,
  },
  {
    kind: 'template directory',
    input: '`--templates` folder whose `partials` cannot be listed (a file)',
    argv: htmlReport('--templates', '$DIR/tpl'),
    files: { 'tpl/partials': 'not a folder' },
    connect: true,
    message: 'tpl/partials: cannot be read (ENOTDIR',
    exitCode: 2,
  },
  {
    kind: 'template directory',
    input:
      '`--templates` folder whose `layout.hbs` is broken Handlebars (no key or URL: checked before connecting)',
    argv: htmlReport('--templates', '$DIR/tpl'),
    files: { 'tpl/layout.hbs': '<html>{{#if figures}}<p>unclosed</html>' },
    // Not connected: without a key the run would stop with exit 3, so exit 2 shows the templates
    // are checked before any network work.
    connect: false,
    message: 'tpl/layout.hbs: does not compile: Parse error on line 1',
    exitCode: 2,
  },
  {
    kind: 'template directory',
    input:
      '`--templates` folder whose `mail/subject.hbs` is broken, with `--email` (checked before connecting)',
    argv: monthly(
      '--templates',
      '$DIR/tpl',
      '--email',
      'cto@example.com',
      '--smtp-url',
      'smtp://127.0.0.1:9',
      '--mail-from',
      'reports@example.com',
    ),
    files: { 'tpl/mail/subject.hbs': 'Report {{#each headline}}' },
    connect: false,
    message: 'mail template subject.hbs: Parse error on line 1',
    exitCode: 2,
  },
  // Output folders: checked before connecting, and nothing in them is deleted
  {
    kind: 'output folder',
    input: '`--out` pointing at a file (no key or URL: checked before connecting)',
    argv: ['monthly', '--out', '$DIR/report.pdf', '--formats', 'json'],
    files: { 'report.pdf': 'not a folder' },
    connect: false,
    message: 'report.pdf is a file, not a folder',
    exitCode: 2,
  },
  {
    kind: 'output folder',
    input: '`--out` folder whose `snapshot` folder holds other files (they would be replaced)',
    argv: monthly(),
    files: { 'out/snapshot/thesis.md': 'mine' },
    connect: false,
    message: 'out/snapshot holds files that are not a snapshot (no manifest.json)',
    exitCode: 2,
  },
  {
    kind: 'output folder',
    input: '`fetch` with both `--out` and `--snapshot`',
    argv: ['fetch', '--out', '$DIR/out', '--snapshot', '$DIR/snap'],
    connect: false,
    message: 'both say where the snapshot goes (--out DIR writes DIR/snapshot): give one of them',
    exitCode: 2,
  },
  {
    kind: 'output folder',
    input: '`fetch --snapshot` folder that holds other files',
    argv: ['fetch', '--snapshot', '$DIR/notes'],
    files: { 'notes/thesis.md': 'mine' },
    connect: true,
    message: 'notes holds files that are not a snapshot (no manifest.json)',
    exitCode: 2,
  },
];

/** The table's cells of each case: kind, input, message (as code) and exit code, Markdown-escaped. */
export function badInputRows(cases: readonly BadInputCase[] = BAD_INPUT_CASES): string[][] {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return cases.map((c) => [cell(c.kind), cell(c.input), cell(`\`${c.message}\``), String(c.exitCode)]);
}

/** The Markdown table of the cases, as docs/bad-input.md holds it (before the formatter aligns it). */
export function badInputTable(cases: readonly BadInputCase[] = BAD_INPUT_CASES): string {
  const rows = badInputRows(cases).map((cells) => `| ${cells.join(' | ')} |`);
  return ['| Kind | Input | Message (part of) | Exit code |', '| --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
}

/** The cells of the body rows of the first Markdown table in a text (`\|` stays inside a cell). */
export function markdownTableRows(text: string): string[][] {
  const lines = text.split('\n').filter((l) => l.trim().startsWith('|'));
  return lines.slice(2).map((l) =>
    l
      .trim()
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim()),
  );
}
