/** What every command receives (the injected I/O and the secrets to scrub), and its set-up. */
import { S3_SECRET_SETTINGS, s3Settings } from '@orgreport/object-store/settings';
import type { RunContext } from '@orgreport/pipeline/context';
import { Reporter } from '@orgreport/pipeline/reporter';
import { configureObjectStorage } from '@orgreport/store/object-storage';
import { type Config, type ConfigFlags, resolveConfig } from './config/config.ts';
import type { CliIo } from './io.ts';

/**
 * The pipeline's run context with the process's whole I/O: `run()` scrubs what is printed with
 * `secrets`, and a stop signal runs what `onStop` registered, then ends the process.
 */
export interface CommandContext extends RunContext {
  io: CliIo;
}

export type { StopCleanupKind } from '@orgreport/pipeline/context';

/** Resolves the configuration of a command and the reporter that logs for it. */
export function setUp(flags: ConfigFlags, ctx: CommandContext): { config: Config; reporter: Reporter } {
  const config = resolveConfig(flags, ctx.io);
  if (config.apiKey) ctx.secrets.add(config.apiKey);
  if (config.pseudonymKey) ctx.secrets.add(config.pseudonymKey);
  // Files a run creates hold personal data (reports, snapshots, the store, the ledger): readable by
  // their owner only, or by the owner's group when the setting relaxes it.
  process.umask(config.fileAccess === 'group' ? 0o027 : 0o077);
  for (const o of config.organizations) if (o.apiKey) ctx.secrets.add(o.apiKey);
  const smtpPassword = config.smtpUrl ? new URL(config.smtpUrl).password : '';
  if (smtpPassword) ctx.secrets.add(decodeURIComponent(smtpPassword));
  // A Postgres ledger's URL carries its password: never shown, the URL whole nor the password alone.
  if (config.ledger && /^postgres(ql)?:\/\//i.test(config.ledger)) {
    ctx.secrets.add(config.ledger);
    const password = URL.canParse(config.ledger) ? new URL(config.ledger).password : '';
    if (password) ctx.secrets.add(decodeURIComponent(password));
  }
  // A store or ledger in object storage reads the S3 settings of the environment; their secrets are masked.
  if ([config.store, config.ledger].some((w) => w && /^s3:\/\//i.test(w))) {
    const settings = s3Settings(ctx.io.env);
    for (const v of S3_SECRET_SETTINGS) if (settings[v]) ctx.secrets.add(settings[v]!);
    configureObjectStorage(settings);
  }
  const reporter = new Reporter(ctx.io.stderr, config.logLevel, () => [...ctx.secrets]);
  return { config, reporter };
}
