/**
 * The printed page's width: no table of the report is wider than an A4 page's text (210 mm less
 * 14 mm margins), with values as long as real ones (addresses, setting names, JSON values). Laid
 * out by Chromium in print media, as the PDF is: a table wider than the page is cut at its edge.
 */
import { buildReportModel, type PeopleDirectory } from '@orgreport/metrics';
import { buildSnapshot, userDay } from '@orgreport/metrics/testing';
import { describe, expect, it } from 'vitest';
import { useTestBrowser } from './__fixtures__/browser.ts';
import { makeFixtureModel } from './__fixtures__/report-model.ts';
import { renderHtml } from './html.ts';

/** The text's width on an A4 page with 14 mm margins, in CSS pixels (96 per inch). */
const PAGE_TEXT_WIDTH = Math.floor(((210 - 2 * 14) / 25.4) * 96);

const browser = useTestBrowser();

/** The tables of `html` wider than the page's text, by their section's id and the table's class. */
async function tablesPastTheEdge(html: string): Promise<string[]> {
  const page = await browser().newPage();
  try {
    await page.setViewport({ width: PAGE_TEXT_WIDTH, height: 1000 });
    await page.emulateMediaType('print');
    await page.setContent(html, { waitUntil: 'load' });
    // Runs in the page (written as text: this package is typed without the DOM's types).
    return (await page.evaluate(`(() => {
      const edge = document.documentElement.clientWidth + 0.5;
      return [...document.querySelectorAll('table')]
        .filter((t) => t.getBoundingClientRect().right > edge)
        .map((t) => (t.closest('section') ? t.closest('section').id : '?') + ' ' + t.className);
    })()`)) as string[];
  } finally {
    await page.close();
  }
}

describe('the printed page', () => {
  it('holds every table within its width, with long addresses, names, setting names and values', async () => {
    const model = makeFixtureModel({ pricing: { pricePerCredit: 0.0001, currency: 'EUR' } });
    const email = 'alexandria.stoltenberg111@acme-robotics.example.com';
    model.seats.dormant_users = Array.from({ length: 3 }, (_, i) => ({
      id: `u-long-${i}`,
      email: email.replace('111', String(111 + i)),
      name: 'Alexandria Stoltenberg-Featherstonehaugh',
      created_at: '2025-11-12T09:30:00.000Z',
      last_active: null,
      last_sign_in: null,
      reclaim: true,
    }));
    const long = {
      path: 'restrictApiKeyCreationToManagers',
      kind: 'changed' as const,
      before: '["npm test","git status","go vet ./...","make build","cargo test"]',
      after:
        '{"model":"mistral-large-3","id":"custom:948287","index":5,"baseUrl":"https://llm-gateway.internal.example/v1","apiKey":"[redacted:f28e4271]","displayName":"Gateway"}',
      redacted: false,
      security: true,
    };
    model.controls.security = [
      ...model.controls.security,
      { ...long, revision: 39, updated_at: '2026-10-27T21:06:00.000Z', by: 'Clemmie Grant' },
    ];
    const html = await renderHtml(model, { embedFonts: false });
    expect(html).toContain(email);
    expect(html).toContain('restrict<wbr>Api<wbr>Key<wbr>Creation<wbr>To<wbr>Managers');
    expect(await tablesPastTheEdge(html)).toEqual([]);
  });

  it("holds the chargeback's and the teams' tables within its width, with a large organization's amounts", async () => {
    const centers = ['CC-100 Engineering', 'CC-200 Product', 'CC-300 Data & AI', 'CC-400 Operations'];
    const teams = ['Platform', 'Payments', 'Mobile', 'Web', 'Data', 'Security'];
    const people = teams.flatMap((team, t) =>
      Array.from({ length: 5 }, (_, i) => ({
        email: `p${t}.${i}@acme-robotics.example.com`,
        team,
        cost: centers[t % 4]!,
      })),
    );
    const directory: PeopleDirectory = {
      source: 'people.csv',
      people: people.map((p) => ({
        email: p.email,
        team: p.team,
        costCenter: p.cost,
        manager: null,
        repositories: [],
        attributes: {},
      })),
    };
    const snapshot = buildSnapshot({
      month: '2026-10',
      userDays: people.map((p, i) =>
        userDay(`u${i}`, '2026-10-02', {
          user_email: p.email,
          billable_tokens: 90_000_000_000 + i,
          tool_calls: 40,
        }),
      ),
      orgUsers: people.map((p, i) => ({ id: `u${i}`, email: p.email })),
    });
    const model = buildReportModel(snapshot, {
      generatedAt: '2026-11-01T06:00:00.000Z',
      pricePerCredit: 0.0004,
      pricePerSeat: 19.99,
      currency: 'USD',
      inputs: { directory },
    });
    const html = await renderHtml(model, { embedFonts: false });
    expect(html).toContain('id="chargeback"');
    expect(html).toContain('CC-300 Data &amp; AI');
    expect(await tablesPastTheEdge(html)).toEqual([]);
  });
});
