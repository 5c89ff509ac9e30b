/** The variables of the S3 settings (the same as the s3 destination's); a module that loads nothing. */
export const S3_SETTINGS = {
  endpoint: 'ORGREPORT_S3_ENDPOINT',
  region: 'ORGREPORT_S3_REGION',
  forcePathStyle: 'ORGREPORT_S3_FORCE_PATH_STYLE',
  accessKeyId: 'AWS_ACCESS_KEY_ID',
  secretAccessKey: 'AWS_SECRET_ACCESS_KEY',
  sessionToken: 'AWS_SESSION_TOKEN',
} as const;

/** The variables among {@link S3_SETTINGS} whose values are secret. */
export const S3_SECRET_SETTINGS: ReadonlyArray<string> = [
  S3_SETTINGS.secretAccessKey,
  S3_SETTINGS.sessionToken,
];

/** The S3 settings of an environment, by variable name. */
export function s3Settings(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  return Object.fromEntries(Object.values(S3_SETTINGS).map((v) => [v, env[v]]));
}
