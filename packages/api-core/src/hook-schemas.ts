/**
 * Schemas of hook events (client-side: the JSON on a hook command's standard input) and of the hooks
 * configuration. Kept apart from schemas.ts so that `orgreport hook record` loads only these.
 */
import { z } from 'zod';
import { openEnum } from './open-enum.ts';

export const HOOK_EVENT_KINDS = ['Notification', 'Stop', 'SubagentStop', 'SessionEnd'] as const;
export type HookEventKind = (typeof HOOK_EVENT_KINDS)[number];

export const hookEventSchema = z.looseObject({
  hook_event_name: openEnum(HOOK_EVENT_KINDS),
  session_id: z.string(),
  cwd: z.string(),
  /** Present on Notification events. */
  message: z.string().optional(),
  /** Present on SessionEnd events; `error` and `other` occur among others. */
  reason: z.string().optional(),
});
export type HookEvent = z.infer<typeof hookEventSchema>;

export const hookCommandSchema = z.object({
  type: z.literal('command'),
  command: z.string().min(1),
  /** Seconds. */
  timeout: z.number().positive().optional(),
});
export const hooksConfigSchema = z.record(
  z.string(),
  z.array(z.object({ hooks: z.array(hookCommandSchema) })),
);
export type HooksConfig = z.infer<typeof hooksConfigSchema>;
