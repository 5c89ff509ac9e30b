/**
 * Organization context: in a scoped report, what the API gives for the whole organization only
 * (tokens by kind, tools by name, DAU by client, files by extension, the autonomy-level mix,
 * enterprise-control changes), shown once, on one compact page, labelled as the organization's.
 * Each section declares its part (`ReportSection.organizationContext`); this one gathers them from
 * the organization's model. Nothing in the organization's own report.
 */
import { fileURLToPath } from 'node:url';
import type { ContextBlock } from '../../model.ts';
import { defineSection, type SectionContext } from '../../section.ts';

export interface OrganizationContextSection {
  /** The organization's name, as the page labels its figures. */
  organization: string;
  blocks: ContextBlock[];
}

/** The context blocks of the report's sections, read from the organization's model; null outside a scoped report. */
export function computeOrganizationContext(context: SectionContext): OrganizationContextSection | null {
  const organization = context.organization;
  if (!context.scope || !organization) return null;
  const blocks = context.sections
    .flatMap((s) => s.organizationContext?.(organization) ?? [])
    .filter((b) => b.rows.length > 0);
  return blocks.length > 0 ? { organization: organization.organization.name, blocks } : null;
}

export const organizationContext = defineSection<OrganizationContextSection | null>({
  id: 'organization-context',
  title: 'Organization context',
  short: true,
  compute: computeOrganizationContext,
  // The organization's totals and top lists: no person, no group under the minimum.
  privacy: (data) => data,
  definitions: [
    {
      id: 'organization_context',
      term: 'Organization context',
      text: 'In a report for a set of people, what the API gives for the whole organization only (tokens by kind, tools and MCP servers by name, daily active users by client, files by extension, the autonomy-level mix, enterprise-control changes) is shown once, on the organization-context page, as the organization\u2019s figures; it is never shown as the set of people\u2019s, and their pages leave it out.',
    },
  ],
  partial: { file: fileURLToPath(new URL('./organization-context.hbs', import.meta.url)) },
});
