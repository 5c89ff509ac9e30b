/**
 * Hostile strings planted by the `hostile` option (issue 9): markup and script, template syntax,
 * spreadsheet formulas, bidirectional marks, emoji, a very long string and an empty one. A report
 * must escape or neutralize every one of them and still render.
 */

/** The hostile values, each with a short name saying what it probes. */
export const HOSTILE_STRINGS = {
  script: '<script>alert("xss")</script>',
  imgOnError: '<img src=x onerror=alert(1)>',
  remoteStylesheet: '<link rel="stylesheet" href="https://evil.example/x.css">',
  iframe: '<iframe src="https://evil.example/"></iframe>',
  handlebars: '{{#each this}}{{this}}{{/each}}{{{constructor.constructor}}}',
  hyperlinkFormula: '=HYPERLINK("https://evil.example/","click me")',
  cmdFormula: "+cmd|' /C calc'!A0",
  atFormula: "@SUM(1+1)*cmd|' /C calc'!A0",
  minusFormula: "-2+3+cmd|' /C calc'!A0",
  rightToLeft: '\u202Egnp.exe\u200F report \u200Fnoitcudorp',
  emoji: '🚀 ship it 🔥👩‍💻🇺🇳',
  long: `long-${'x'.repeat(9995)}`,
  empty: '',
  tabFormula: '\t=1+2',
  carriageReturnFormula: '\r=1+2',
} as const;

/** The hostile values as a list, in a fixed order. */
export const HOSTILE_LIST: readonly string[] = Object.values(HOSTILE_STRINGS);

/** In hostile mode users 1..HOSTILE_USERS carry the hostile values (in names, e-mails, MCP servers, skills). */
export const HOSTILE_USERS = HOSTILE_LIST.length;

/** True for the users who carry hostile values: 1..{@link HOSTILE_USERS} (user 0, the owner, stays ordinary). */
export function isHostileUser(hostile: boolean, index: number): boolean {
  return hostile && index >= 1 && index <= HOSTILE_USERS;
}

/** The hostile value for slot `i` (cycling through the list). */
export function hostileAt(i: number): string {
  return HOSTILE_LIST[((i % HOSTILE_LIST.length) + HOSTILE_LIST.length) % HOSTILE_LIST.length] as string;
}
